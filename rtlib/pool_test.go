package rtlib_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// TestPoolReuse runs testdata/accounting/pool: 16 tasks that Get and Put
// a 2 MiB buffer of a sync.Pool. The serial run reuses one buffer, where a
// schedule with p tasks in progress holds min(p, 16) of them (before, it
// reported 2 MiB at every p, exact). A Get that reuses the buffer is now
// charged as an allocation until its Put; the buffer itself stays
// charged where New made it, so the figures are upper bounds by one
// buffer at most: MHWM_p within [min(p, 16), min(p, 16) + 1] buffers
// (and slack), the root inexact, saying why. The same Gets and Puts by
// main alone, with no goroutine, reuse the buffer in every schedule: the
// root stays exact at one buffer.
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
			if said != c.reused || r.Exact == c.reused || r.Unbounded {
				t.Errorf("reason about the pool given %v, exact %v, unbounded %v; want %v, %v, false; reasons %q", said, r.Exact, r.Unbounded, c.reused, !c.reused, r.Reasons)
			}
			const buf = 2 << 20
			for _, q := range []int64{1, 2, 8, 16, 64} {
				m, _ := r.MHWMAt(int(q))
				lo, hi := min(q, 16)*buf, (min(q, 16)+1)*buf
				if !c.reused {
					lo, hi = buf, buf
				}
				if m < lo || m > hi+slack(hi) {
					t.Errorf("MHWM_%d = %d, want %d … %d", q, m, lo, hi)
				}
			}
		})
	}
}
