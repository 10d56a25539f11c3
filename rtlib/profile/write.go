package profile

import (
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links WriteBytes follows (Linux's own
// limit is 40).
const maxLinks = 40

// WriteBytes writes data to path, the way WriteFile writes a profile and
// spreport and spbuild write their reports:
//
//   - A regular file, or a new one, is written whole or not at all: data
//     goes into a temporary file in the same directory, synced, then
//     renamed over it (an existing file keeps its permissions; a new one
//     is 0644).
//   - A symbolic link stays a link: its final target gets the content
//     (and is created if the link dangles).
//   - A FIFO, a device or another file that is not regular, and any path
//     that goes through /dev or /proc (/dev/stdout, /proc/self/fd/1), is
//     opened and written in place, never replaced; a regular file reached
//     that way (standard output redirected to a file) is appended to.
//
// The errors are the operating system's, which name the file.
func WriteBytes(path string, data []byte) error {
	target, inPlace := writeTarget(path)
	if inPlace {
		return writeInPlace(target, data)
	}
	return writeReplace(target, data)
}

// writeTarget follows path's symbolic links to the file to write and
// says whether it must be written in place.
func writeTarget(path string) (target string, inPlace bool) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return path, true
	}
	target = path
	for range maxLinks {
		if systemPath(target) {
			return path, true
		}
		fi, err := os.Lstat(target)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return target, false
		}
		dest, err := os.Readlink(target)
		if err != nil {
			return target, false
		}
		if !filepath.IsAbs(dest) {
			// Not filepath.Join: a ".." in dest must go through the
			// link's directory as the system resolves it.
			dest = filepath.Dir(target) + string(filepath.Separator) + dest
		}
		target = dest
	}
	return target, false // a loop: the write reports it
}

// systemPath reports whether path names a file of /dev or /proc, whose
// entries stand for open files and devices and are never replaced.
func systemPath(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	abs = filepath.ToSlash(abs)
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}

// writeInPlace writes data to the open file path names.
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeReplace writes data to a temporary file beside path, syncs it and
// renames it over path.
func writeReplace(path string, data []byte) (err error) {
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(perm); err != nil { // CreateTemp makes it 0600
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
