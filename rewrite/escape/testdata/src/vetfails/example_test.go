package vetfails

import "testing"

func ExampleRetryContext() {}

func TestBuf(t *testing.T) {
	if len(Buf()) != 64 {
		t.Fatal("short")
	}
}
