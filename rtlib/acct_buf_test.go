package rtlib

import (
	"bytes"
	"testing"
	"unsafe"
)

// TestBufOnStack: a bytes.Buffer over an array the compiler keeps on
// the stack is not followed (a weak pointer to a stack address is a
// fatal error), and one over a heap array is.
func TestBufOnStack(t *testing.T) {
	if getg() == nil {
		t.Skip("no getg on this platform: buffers are not followed")
	}
	var arr [8192]byte
	if !onStack(uintptr(unsafe.Pointer(&arr[0]))) {
		t.Errorf("a local array that does not escape: not on the stack")
	}
	heap := make([]byte, 8192)
	bufTestSink = heap
	if onStack(uintptr(unsafe.Pointer(&heap[0]))) {
		t.Errorf("an escaping array: on the stack")
	}
	b := bytes.NewBuffer(arr[:0])
	b.WriteString("x")
	BufSeen(1, b) // a weak pointer to arr would be fatal
	if b.Len() != 1 {
		t.Fatal(b.Len())
	}
}

// bufTestSink moves TestBufOnStack's array to the heap.
var bufTestSink []byte
