//go:build unix

package profile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestWriteFileTargets: WriteFile writes through symbolic links (the link
// stays a link), and writes FIFOs, devices and the open files /proc and
// /dev name in place instead of renaming a regular file over them.
func TestWriteFileTargets(t *testing.T) {
	var enc bytes.Buffer
	if err := Encode(&enc, sample()); err != nil {
		t.Fatal(err)
	}
	want := enc.String()
	tests := []struct {
		name string
		root bool // needs root (device nodes)
		// setup prepares dir and returns the path to write and a check
		// of what the write left.
		setup func(t *testing.T, dir string) (string, func(t *testing.T, err error))
	}{
		{name: "new file", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			p := filepath.Join(dir, "p.json")
			return p, func(t *testing.T, err error) {
				noErr(t, err)
				isRegular(t, p, 0o644)
				hasContent(t, p, want)
			}
		}},
		{name: "existing file keeps its mode", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			p := filepath.Join(dir, "p.json")
			write(t, p, "old", 0o600)
			return p, func(t *testing.T, err error) {
				noErr(t, err)
				isRegular(t, p, 0o600)
				hasContent(t, p, want)
			}
		}},
		{name: "symlink", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			target, link := filepath.Join(dir, "target.json"), filepath.Join(dir, "link.json")
			write(t, target, "old", 0o644)
			symlink(t, target, link)
			return link, func(t *testing.T, err error) {
				noErr(t, err)
				isLink(t, link)
				hasContent(t, target, want)
			}
		}},
		{name: "relative symlink chain", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			sub := filepath.Join(dir, "sub")
			os.Mkdir(sub, 0o755)
			write(t, filepath.Join(sub, "target.json"), "old", 0o644)
			symlink(t, "target.json", filepath.Join(sub, "l2"))
			symlink(t, "sub/l2", filepath.Join(dir, "l1"))
			return filepath.Join(dir, "l1"), func(t *testing.T, err error) {
				noErr(t, err)
				isLink(t, filepath.Join(dir, "l1"))
				isLink(t, filepath.Join(sub, "l2"))
				hasContent(t, filepath.Join(sub, "target.json"), want)
			}
		}},
		{name: "dangling symlink", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			target, link := filepath.Join(dir, "new.json"), filepath.Join(dir, "link.json")
			symlink(t, target, link)
			return link, func(t *testing.T, err error) {
				noErr(t, err)
				isLink(t, link)
				hasContent(t, target, want)
			}
		}},
		{name: "FIFO", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			got := readAsync(func() (io.ReadCloser, error) { return os.Open(p) })
			return p, func(t *testing.T, err error) {
				noErr(t, err)
				if fi, _ := os.Lstat(p); fi.Mode()&os.ModeNamedPipe == 0 {
					t.Fatalf("the FIFO was replaced: %v", fi.Mode()) // its reader waits forever
				}
				if s := <-got; s != want {
					t.Errorf("read %d bytes from the FIFO, want %d", len(s), len(want))
				}
			}
		}},
		{name: "pipe through /proc/self/fd", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			p := procFd(t, w)
			got := readAsync(func() (io.ReadCloser, error) { return r, nil })
			return p, func(t *testing.T, err error) {
				noErr(t, err)
				w.Close()
				if s := <-got; s != want {
					t.Errorf("read %d bytes from the pipe, want %d", len(s), len(want))
				}
			}
		}},
		{name: "redirected stdout through a link to /proc/self/fd", setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			out := filepath.Join(dir, "stdout.txt")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			f.WriteString("program output\n")
			link := filepath.Join(dir, "stdout")
			symlink(t, procFd(t, f), link)
			return link, func(t *testing.T, err error) {
				noErr(t, err)
				isLink(t, link)
				hasContent(t, out, "program output\n"+want)
			}
		}},
		{name: "character device", root: true, setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			p := mknod(t, dir, "null", 1, 3)
			return p, func(t *testing.T, err error) {
				noErr(t, err)
				isDevice(t, p)
			}
		}},
		{name: "full device", root: true, setup: func(t *testing.T, dir string) (string, func(*testing.T, error)) {
			p := mknod(t, dir, "full", 1, 7)
			return p, func(t *testing.T, err error) {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Errorf("error %v, want ENOSPC", err)
				}
				isDevice(t, p)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.root && os.Geteuid() != 0 {
				t.Skip("needs root (device nodes)")
			}
			path, check := tt.setup(t, t.TempDir())
			check(t, WriteFile(path, sample()))
		})
	}
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func hasContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s holds %d bytes %.40q..., want %d bytes %.40q...", filepath.Base(path), len(got), got, len(want), want)
	}
}

func isRegular(t *testing.T, path string, perm os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != perm {
		t.Errorf("%s: mode %v, want a regular file %v", filepath.Base(path), fi.Mode(), perm)
	}
}

func isLink(t *testing.T, path string) {
	t.Helper()
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link: %v %v", filepath.Base(path), fi.Mode(), err)
	}
}

func isDevice(t *testing.T, path string) {
	t.Helper()
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a device: %v %v", filepath.Base(path), fi.Mode(), err)
	}
}

// readAsync reads what open returns to its end in a goroutine.
func readAsync(open func() (io.ReadCloser, error)) <-chan string {
	got := make(chan string, 1)
	go func() {
		r, err := open()
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	return got
}

// procFd returns the /proc/self/fd name of f.
func procFd(t *testing.T, f *os.File) string {
	t.Helper()
	p := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	if _, err := os.Stat(p); err != nil {
		t.Skip("no /proc/self/fd here:", err)
	}
	return p
}

// mknod makes a character device node in dir (root only).
func mknod(t *testing.T, dir, name string, major, minor int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, major<<8|minor); err != nil {
		t.Skip("cannot make device nodes here:", err)
	}
	return p
}
