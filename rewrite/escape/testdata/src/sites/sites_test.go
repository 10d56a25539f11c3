package sites

import "testing"

func TestInternal(t *testing.T) {
	p := &T{1, 2}
	sinkT = mk()
	if p.a+len(makeSlice(3)) != 4 {
		t.Fatal("bad")
	}
}
