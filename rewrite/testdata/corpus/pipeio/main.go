// Program pipeio exercises goroutines that block in standard-library
// code rtlib does not see: io.Pipe reads and writes, as a decoder that
// peeks at its input through a TeeReader does.
//
// Constructs:
//   - a goroutine reading an io.Pipe (io.ReadFull, then io.Copy to
//     io.Discard) while the spawner writes to it through io.TeeReader;
//   - the spawner waiting on a channel the reader closes;
//   - a second pipe written by a goroutine and read by the spawner with
//     bufio.Scanner, line by line;
//   - no watchdog warning on stderr: each holder blocked in the pipe
//     gives the baton up at once.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

func peek(src io.Reader) (header string, n int64) {
	pr, pw := io.Pipe()
	r := io.TeeReader(src, pw)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var h [8]byte
		io.ReadFull(pr, h[:])
		header = string(h[:])
		io.Copy(io.Discard, pr)
	}()
	n, _ = io.Copy(io.Discard, r)
	pw.Close()
	<-done
	return header, n
}

func main() {
	for i := range 3 {
		src := bytes.NewReader([]byte(strings.Repeat(fmt.Sprintf("block%03d", i), 4096)))
		h, n := peek(src)
		fmt.Println(h, n)
	}

	pr, pw := io.Pipe()
	go func() {
		for i := range 5 {
			fmt.Fprintf(pw, "line %d\n", i)
		}
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		fmt.Println("read", sc.Text())
	}
}
