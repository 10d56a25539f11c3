package a

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

func readLines(r io.Reader) error {
	data, err := io.ReadAll(r) // want `tailstrict: io.ReadAll holds the whole input`
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		use(len(line))
	}
	return nil
}

func readFields(f *os.File) {
	data, _ := io.ReadAll(f) // want `io.ReadAll holds the whole input`
	words := bytes.Fields(data)
	for _, w := range words {
		use(len(w))
	}
}

func readSeq(r io.Reader) {
	data, _ := io.ReadAll(r) // want `io.ReadAll holds the whole input`
	for l := range strings.Lines(string(data)) {
		use(len(l))
	}
}

// Quiet: an in-memory reader, even through a variable and an interface.
func inMemory(s string) {
	var r io.Reader = strings.NewReader(s)
	data, _ := io.ReadAll(r)
	for _, l := range strings.Split(string(data), "\n") {
		use(len(l))
	}
}

func fromBuffer(b *bytes.Buffer) {
	data, _ := io.ReadAll(b)
	for _, l := range bytes.Split(data, []byte("\n")) {
		use(len(l))
	}
}

// Quiet: a small limit.
func limited(r io.Reader) {
	data, _ := io.ReadAll(io.LimitReader(r, 4096))
	for _, l := range strings.Split(string(data), "\n") {
		use(len(l))
	}
}

// Reported: a limit too large to call small.
func bigLimit(r io.Reader) {
	data, _ := io.ReadAll(io.LimitReader(r, 1<<30)) // want `io.ReadAll holds the whole input`
	for _, l := range strings.Split(string(data), "\n") {
		use(len(l))
	}
}

// Quiet: the data is used for more than the split.
func alsoWhole(r io.Reader) {
	data, _ := io.ReadAll(r)
	use(len(data))
	for _, l := range strings.Split(string(data), "\n") {
		use(len(l))
	}
}

// Quiet: the pieces are used as a whole.
func piecesWhole(r io.Reader) []string {
	data, _ := io.ReadAll(r)
	lines := strings.Split(string(data), "\n")
	for _, l := range lines {
		use(len(l))
	}
	return lines
}

// Quiet: one piece only, not ranged.
func firstLine(r io.Reader) string {
	data, _ := io.ReadAll(r)
	return strings.Split(string(data), "\n")[0]
}

// Quiet: every line is copied into a buffer kept whole, O(input) either way.
func rewrap(r io.Reader) []byte {
	data, _ := io.ReadAll(r)
	var buf bytes.Buffer
	for _, l := range strings.Split(string(data), "\n") {
		fmt.Fprintf(&buf, "// %s\n", l)
	}
	return buf.Bytes()
}
