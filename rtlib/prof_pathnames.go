package rtlib

import (
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// The frames of call paths (prof_paths.go): which files are instrumented, and
// the names of functions as the site tables write them.

// instrumentedDir reports whether dir holds an instrumented file.
func instrumentedDir(dir string) bool {
	sites.mu.Lock()
	defer sites.mu.Unlock()
	_, ok := slices.BinarySearch(sites.dirs, dir)
	return ok
}

// addDir records the directory of an instrumented file; sites.mu held.
func addDir(file string) {
	dir := filepath.Dir(file)
	if i, ok := slices.BinarySearch(sites.dirs, dir); !ok {
		sites.dirs = slices.Insert(sites.dirs, i, dir)
	}
}

// funcName is the runtime's name of a function as the site tables name
// it: both qualify it by the package's path ("example.com/m/pkg.F", and
// "main.F" in a main package), but a generic function goes without its
// type arguments.
func funcName(fn string) string {
	return strings.TrimSuffix(fn, "[...]")
}

// isClosure reports whether fn is the runtime's name of a function
// literal: "main.F.func1", "main.F.func1.2" (one inlined or nested in
// another).
func isClosure(fn string) bool {
	for {
		i := strings.LastIndexByte(fn, '.')
		if i < 0 {
			return false
		}
		last := fn[i+1:]
		if strings.HasPrefix(last, "func") && allDigits(last[len("func"):]) {
			return true
		}
		if !allDigits(last) {
			return false
		}
		fn = fn[:i]
	}
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// closureName is the site tables' name ("main.F.func@12:7") of the
// function literal the runtime calls fn, whose code starts at entry in
// file: the one name of a site of file that ends in func@LINE:COL with
// the literal's line. A literal without sites (or two on its line) keeps
// the runtime's name; the name matters where the literal allocates,
// whose sites then carry the name its frames get.
func closureName(fn, file string, entry uintptr) string {
	f := runtime.FuncForPC(entry)
	if f == nil {
		return fn
	}
	_, line := f.FileLine(entry)
	want := ".func@" + strconv.Itoa(line) + ":"
	sites.mu.Lock()
	defer sites.mu.Unlock()
	name := ""
	for i := range sites.all {
		rec := &sites.all[i]
		if rec.File != file || rec.Func == name {
			continue
		}
		j := strings.LastIndex(rec.Func, ".func@")
		if j < 0 || !strings.HasPrefix(rec.Func[j:], want) || !allDigits(rec.Func[j+len(want):]) {
			continue
		}
		if name != "" {
			return fn // two literals on the line
		}
		name = rec.Func
	}
	if name == "" {
		return fn
	}
	return name
}

// frameHash hashes a frame (FNV-1a).
func frameHash(fn, file string, line int) uint64 {
	h := uint64(14695981039346656037)
	for _, s := range [...]string{fn, file} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h = (h ^ 0xff) * 1099511628211
	}
	return (h ^ uint64(line)) * 1099511628211
}
