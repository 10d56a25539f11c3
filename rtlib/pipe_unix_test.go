//go:build unix

package rtlib

import (
	"syscall"
	"testing"
)

// rawPipe returns the ends of a pipe read with blocking system calls:
// the reader is in a system call, not waiting in the Go runtime.
func rawPipe(t *testing.T) (read, write func()) {
	var fd [2]int
	if err := syscall.Pipe(fd[:]); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd[0]); syscall.Close(fd[1]) })
	return func() {
			var b [1]byte
			syscall.Read(fd[0], b[:])
		}, func() {
			syscall.Write(fd[1], []byte{1})
		}
}
