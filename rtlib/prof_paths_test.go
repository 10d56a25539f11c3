package rtlib

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// The call paths of allocations, in this process: this file is
// registered as an instrumented file, allocHere plays the allocating
// function (its caller's frame is a hook's, pathKey skips three), and the
// functions below call it along different paths. Lines are found by the
// markers at their ends.

//go:noinline
func allocHere(site Site) Site { return hookHere(site) } // @alloc

//go:noinline
func hookHere(site Site) Site { return pathKey(site) }

//go:noinline
func fromA(site Site) Site { return allocHere(site) } // @fromA

//go:noinline
func fromB(site Site) Site { return allocHere(site) } // @fromB

//go:noinline
func deep(site Site, n int) Site {
	if n == 0 {
		return allocHere(site) // @deep
	}
	return deep(site, n-1)
}

// thisFile is the name of this file.
func thisFile() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}

// pkg is this package's qualifier in function names, as the runtime and
// the site tables write it: "github.com/spgo/spgo/rtlib.".
var pkg = func() string {
	pc, _, _, _ := runtime.Caller(0)
	name := runtime.FuncForPC(pc).Name()
	return name[:strings.LastIndex(name, ".init")+1]
}()

// lineOf returns the line of this file that ends with the marker.
func lineOf(marker string) int {
	src, err := os.ReadFile(thisFile())
	if err != nil {
		panic(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// "+marker) {
			return i + 1
		}
	}
	panic("no line marked " + marker)
}

// testSite registers this file with allocHere's site and one in the
// literal of TestPathKeyClosure, once per process.
var testSite = func() Site {
	l := func(m string) int32 { return int32(lineOf(m)) }
	return Register("rtlib", thisFile(), []SiteInfo{
		{Line: l("@alloc"), Func: pkg + "allocHere", Op: OpNew},
		{Line: l("@inlit"), Func: fmt.Sprintf("%sTestPathKeyClosure.func@%d:7", pkg, l("@lit")), Op: OpNew},
	})
}()

// pathString is the frames of key's path, "fn:line < fn:line".
func pathString(key Site) string {
	var s []string
	for _, f := range sitePath(key) {
		s = append(s, fmt.Sprintf("%s:%d", f.fn, f.line))
	}
	return strings.Join(s, " < ")
}

func TestPathKey(t *testing.T) {
	a1, b, a2 := fromA(testSite), fromB(testSite), fromA(testSite) // @calls
	var again []Site
	for range 3 {
		again = append(again, fromA(testSite)) // @again
	}
	d5, d9 := deep(testSite, 5), deep(testSite, 9) // @deeps
	at := func(fn, marker string) string { return fmt.Sprintf("%s%s:%d", pkg, fn, lineOf(marker)) }
	test := "TestPathKey"
	tests := []struct {
		name string
		key  Site
		want string
	}{
		{"fromA", a1, at("fromA", "@fromA") + " < " + at(test, "@calls")},
		{"fromB", b, at("fromB", "@fromB") + " < " + at(test, "@calls")},
		{"fromA from another line", again[0], at("fromA", "@fromA") + " < " + at(test, "@again")},
		// Recursion: the run of deep's frames is its innermost one, so
		// the depth does not make paths.
		{"deep 5", d5, at("deep", "@deep") + " < " + at(test, "@deeps")},
		{"deep 9", d9, at("deep", "@deep") + " < " + at(test, "@deeps")},
	}
	for _, tc := range tests {
		if got := pathString(tc.key); got != tc.want {
			t.Errorf("%s: path %q, want %q", tc.name, got, tc.want)
		}
		// A key is a site of its own with its site's record.
		if rec, ok := Lookup(tc.key); !ok || tc.key == testSite || rec.Func != pkg+"allocHere" || int(rec.Line) != lineOf("@alloc") {
			t.Errorf("%s: key %d, record %+v, %v", tc.name, tc.key, rec, ok)
		}
	}
	// One path, one key: interned.
	if a1 != a2 || again[0] != again[1] || again[1] != again[2] || d5 != d9 {
		t.Errorf("keys of one path differ: fromA %d, %d; again %v; deep %d, %d", a1, a2, again, d5, d9)
	}
	if a1 == b || a1 == again[0] || d5 == a1 {
		t.Errorf("keys of different paths agree: fromA %d, fromB %d, again %d, deep %d", a1, b, again[0], d5)
	}
	if got := pathString(testSite); got != "" {
		t.Errorf("the site itself has a path: %q", got)
	}
}

// callIt calls f, which is then not inlined.
//
//go:noinline
func callIt(f func() Site) Site { return f() } // @callIt

// TestPathKeyClosure: a function literal on the path is named as the site
// tables name it when one of its sites says where it starts.
func TestPathKeyClosure(t *testing.T) {
	f := func() Site { // @lit
		return allocHere(testSite) // @inlit
	}
	want := fmt.Sprintf("%[1]sTestPathKeyClosure.func@%[2]d:7:%[3]d < %[1]scallIt:%[4]d < %[1]sTestPathKeyClosure:%[5]d", pkg, lineOf("@lit"), lineOf("@inlit"), lineOf("@callIt"), lineOf("@callf"))
	if got := pathString(callIt(f)); got != want { // @callf
		t.Errorf("path %q, want %q", got, want)
	}
}

func TestIsClosure(t *testing.T) {
	for fn, want := range map[string]bool{
		"main.main.func1": true, "main.main.func1.2": true, "pkg.(*T).M.func12": true,
		"main.main": false, "main.func": false, "main.F.1": false, "main.funcs": false, "x": false,
	} {
		if got := isClosure(fn); got != want {
			t.Errorf("isClosure(%q) = %v, want %v", fn, got, want)
		}
	}
}

func TestFuncName(t *testing.T) {
	for fn, want := range map[string]string{
		"main.main": "main.main", "example.com/m/pkg.F": "example.com/m/pkg.F",
		"example.com/m/pkg.(*T).M": "example.com/m/pkg.(*T).M", "main.Map[...]": "main.Map",
		"gopkg.in/yaml.v3.(*parser).parse": "gopkg.in/yaml.v3.(*parser).parse",
	} {
		if got := funcName(fn); got != want {
			t.Errorf("funcName(%q) = %q, want %q", fn, got, want)
		}
	}
}

// BenchmarkPathKey is the cost of a path at an allocation whose path is
// known: runtime.Callers and the look-ups.
func BenchmarkPathKey(b *testing.B) {
	for b.Loop() {
		fromA(testSite)
	}
}

// BenchmarkPathKeyDeep is the same twenty frames deeper (recursion).
func BenchmarkPathKeyDeep(b *testing.B) {
	for b.Loop() {
		deep(testSite, 20)
	}
}

// TestPathTablesHeld: the call-path tables are rtlib's live memory until
// the process ends, and say so, to the byte (mem.ownHeld, part of
// ownLive): a census that took their bytes for the program's small
// objects found that many fewer deaths (too high a figure), and one that
// counted more than they hold would find deaths that did not happen (too
// low). Before, bintrees of the accuracy corpus reported 5.97 MiB for
// 5.00 at p = 1 once the table of return addresses held about 0.9 MiB;
// 5.07 since.
func TestPathTablesHeld(t *testing.T) {
	held := func() int64 { // what ownGrown counts for each array
		n := ownSize(bytesOfCap(paths.rawPCs)) + ownSize(bytesOfCap(paths.raw)) + ownSize(bytesOfCap(paths.rawIx.slots)) +
			ownSize(bytesOfCap(paths.pcSpan)) + ownSize(bytesOfCap(paths.pcFr)) + ownSize(bytesOfCap(paths.pcs.slots)) +
			ownSize(bytesOfCap(paths.seqs)) + ownSize(bytesOfCap(paths.byHash.slots)) + ownSize(bytesOfCap(paths.keys.slots)) +
			ownSize(bytesOfCap(paths.seq)) + ownSize(bytesOfCap(paths.of)) + ownSize(bytesOfCap(sites.all)) +
			ownSize(bytesOfCap(mem.slots)) + ownSize(bytesOfCap(mem.pslots))
		for _, sq := range paths.seqs {
			n += ownSize(bytesOfCap(sq))
		}
		return n
	}
	held0, tables0 := mem.ownHeld, held()
	// Recursion makes a new sequence of return addresses per depth, up
	// to the 32 frames read.
	for n := range 40 {
		deep(testSite, n)
	}
	grown := held() - tables0
	if grown == 0 {
		t.Skip("the sequences were seen before in this process (go test -count)")
	}
	if got := mem.ownHeld - held0; got != grown {
		t.Errorf("the path tables grew by %d bytes, rtlib's held bytes by %d", grown, got)
	}
}

// bytesOfCap is the bytes of s's backing array.
func bytesOfCap[T any](s []T) int64 {
	var z T
	return int64(cap(s)) * int64(unsafe.Sizeof(z))
}
