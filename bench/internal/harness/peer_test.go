package harness

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// sink keeps the test's allocations from being optimised away.
var sink [][]byte

// writeProfile writes a profile to a new file and returns its path.
func writeProfile(t *testing.T, write func(w io.Writer) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "heap.pb.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// rateOneProfile allocates n objects of size bytes with every allocation
// profiled and writes the heap profile to a new file.
func rateOneProfile(t *testing.T, n, size int) string {
	t.Helper()
	old := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	for range n {
		sink = append(sink, make([]byte, size))
	}
	runtime.GC()
	path := writeProfile(t, pprof.WriteHeapProfile)
	runtime.MemProfileRate = old
	sink = nil
	return path
}

func TestCheckHeapProfile(t *testing.T) {
	real := rateOneProfile(t, 100, 1000)
	empty := writeProfile(t, (&profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		Period:     1,
	}).Write)
	cpu := writeProfile(t, (&profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample:     []*profile.Sample{{Value: []int64{1, 10}}},
		Period:     1,
	}).Write)
	garbage := filepath.Join(t.TempDir(), "garbage")
	if err := os.WriteFile(garbage, []byte("not a profile"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		rate       int64
		allocated  int64
		wantErr    string // "" if none
	}{
		{"rate 1 with allocations", real, 1, 0, ""},
		{"any rate", real, 0, 0, ""},
		{"the rate did not take effect", real, 512 << 10, 0, "did not take effect"},
		{"no samples", empty, 1, 0, "profiled nothing"},
		{"no samples of 16 bytes allocated", empty, 1, 16, "profiled nothing"},
		{"none may be by chance", empty, 1, 15, ""},
		{"not a heap profile", cpu, 0, 0, "not a heap profile"},
		{"not a profile", garbage, 0, 0, "heap profile"},
		{"no file", filepath.Join(t.TempDir(), "none"), 0, 0, "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := CheckHeapProfile(c.path, c.rate, c.allocated)
			if c.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c.path == empty {
					return
				}
				// 100 KB of the test's own, at least, besides the runtime's.
				if h.AllocObjects < 100 || h.AllocBytes < 100*1000 {
					t.Errorf("%+v: fewer than the test's 100 allocations of 1000 bytes", h)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("err = %v, want one saying %q", err, c.wantErr)
			}
		})
	}
}

func TestRenameMain(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		ok              bool
	}{
		{"func main", "package main\n\nfunc main() { f() }\n\nfunc f() {}\n", "package main\n\nfunc spgoPeerMain() { f() }\n\nfunc f() {}\n", true},
		{"method named main", "package main\n\ntype T int\n\nfunc (T) main() {}\n", "", false},
		{"no main", "package main\n\nfunc f() {}\n", "", false},
		{"not package main", "package lib\n\nfunc main() {}\n", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := renameMain("x.go", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if ok != c.ok || string(got) != c.want {
				t.Errorf("renameMain = %q, %v; want %q, %v", got, ok, c.want, c.ok)
			}
		})
	}
	if _, _, err := renameMain("x.go", []byte("package main\nfunc {")); err == nil {
		t.Error("renameMain accepted a file that does not parse")
	}
}

// TestProfiledPeer builds a benchmark program as the pprof peer and
// checks that it writes a heap profile with samples at rate 1, which the
// previous peer (GODEBUG=memprofilerate=1 on the plain binary) could not,
// and prints what the plain binary prints.
func TestProfiledPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a benchmark program")
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b := &Builder{Root: root, Dir: dir}
	peer, err := b.Profiled("bintrees")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := b.Plain("bintrees", "")
	if err != nil {
		t.Fatal(err)
	}
	args := Sizes["bintrees"]
	heap := filepath.Join(dir, "heap.pb.gz")
	peerOut, err := Output("", []string{PeerRateEnv + "=1", PeerHeapEnv + "=" + heap}, peer, args...)
	if err != nil {
		t.Fatal(err)
	}
	plainOut, err := Output("", nil, plain, args...)
	if err != nil {
		t.Fatal(err)
	}
	if peerOut != plainOut {
		t.Errorf("the peer printed %q, the plain binary %q", peerOut, plainOut)
	}
	h, err := CheckHeapProfile(heap, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	// -depth 10: the four goroutines build about 2^15 nodes each (and
	// the stretch and long-lived trees 6,141 more), every one sampled at
	// rate 1.
	if h.AllocObjects < 1<<17 {
		t.Errorf("the peer's profile counts %d allocated objects, want every node of the trees (> 2^17)", h.AllocObjects)
	}
	t.Logf("%+v", h)
}

func TestMain(m *testing.M) {
	ServeCheck() // CheckHeapProfileApart runs this test binary again
	os.Exit(m.Run())
}

// TestCheckHeapProfileApart: the check in a process of its own gives
// what it gives in this one, errors included.
func TestCheckHeapProfileApart(t *testing.T) {
	path := rateOneProfile(t, 10, 2000)
	want, err := CheckHeapProfile(path, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CheckHeapProfileApart(path, 1, 0)
	if err != nil || got != want {
		t.Errorf("apart: %+v, %v; here: %+v", got, err, want)
	}
	if _, err := CheckHeapProfileApart(path, 512<<10, 0); err == nil || !strings.Contains(err.Error(), "did not take effect") {
		t.Errorf("apart, wrong rate: err = %v", err)
	}
}
