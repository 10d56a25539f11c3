package rtlib_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestPoolReuse runs testdata/accounting/pool: 16 tasks that Get and Put
// a 2 MiB buffer of a sync.Pool. The serial run reuses one buffer, where a
// parallel schedule holds one per task in progress (up to 32 MiB at p = 16);
// rtlib does not model that, so the root must not claim exactness or an
// interval (before, it reported 2 MiB at every p, exact). The same Gets
// and Puts by main alone, with no goroutine, reuse the buffer in every
// schedule: the root keeps its exactness.
func TestPoolReuse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	orig, inst := buildBoth(t, root, []string{"./rtlib/testdata/accounting/pool"})
	for _, c := range []struct {
		arg    string
		reused bool
	}{{"tasks", true}, {"serial", false}} {
		t.Run(c.arg, func(t *testing.T) {
			want, _ := runArgs(t, filepath.Join(orig, "pool"), "", []string{c.arg})
			pf := filepath.Join(t.TempDir(), "p.json")
			got, _ := runArgs(t, filepath.Join(inst, "pool"), pf, []string{c.arg})
			if got != want {
				t.Errorf("stdout %q, original %q", got, want)
			}
			p, err := profile.ReadFile(pf)
			if err != nil {
				t.Fatal(err)
			}
			r := p.Roots[0]
			said := strings.Contains(strings.Join(r.Reasons, "\n"), "sync.Pool.Get reused")
			_, high, _ := r.IntervalAt(8)
			if said != c.reused {
				t.Errorf("reason about the pool given: %v, want %v; reasons %q", said, c.reused, r.Reasons)
			}
			if c.reused && (r.Exact || high != 0 || !r.Unbounded) {
				t.Errorf("exact %v, unbounded %v, interval high %d at p = 8: the figures may be too low", r.Exact, r.Unbounded, high)
			}
			if !c.reused && !r.Exact {
				t.Errorf("inexact: %q", r.Reasons)
			}
		})
	}
}
