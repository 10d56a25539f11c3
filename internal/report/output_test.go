//go:build unix

package report

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	hello := func(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }
	read := func(p string) string { b, _ := os.ReadFile(p); return string(b) }

	// A new file, then replacing it.
	f := filepath.Join(dir, "a.html")
	if err := WriteFile(f, hello); err != nil || read(f) != "hello\n" {
		t.Fatalf("new file: %v %q", err, read(f))
	}
	if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}
	// A symbolic link stays a link; its target gets the content.
	target := filepath.Join(dir, "target.html")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.html")
	os.Symlink(target, link)
	if err := WriteFile(link, hello); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 || read(target) != "hello\n" {
		t.Errorf("symlink replaced or target not written: %v %q", fi.Mode(), read(target))
	}
	// A FIFO is written in place, not replaced.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan string)
	go func() { b, _ := os.ReadFile(fifo); got <- string(b) }()
	if err := WriteFile(fifo, hello); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "hello\n" {
		t.Errorf("FIFO read %q", s)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", fi.Mode())
	}
	// Errors name the file; a failed writer leaves nothing.
	if err := WriteFile(filepath.Join(dir, "no", "x.html"), hello); err == nil || !strings.Contains(err.Error(), "no/x.html") {
		t.Errorf("error %v", err)
	}
	bad := func(io.Writer) error { return io.ErrUnexpectedEOF }
	if err := WriteFile(filepath.Join(dir, "b.html"), bad); err == nil {
		t.Error("no error from a failing writer")
	}
	if _, err := os.Stat(filepath.Join(dir, "b.html")); err == nil {
		t.Error("a failing writer left a file")
	}
}
