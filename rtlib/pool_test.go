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
// reported 2 MiB at every p, exact; then upper bounds by a buffer,
// inexact). A Put frees the buffer and a Get that reuses it allocates it:
// MHWM_p is min(p, 16) buffers, exact. The same Gets and Puts by main
// alone, with no goroutine, hold one buffer in every schedule. Under the
// oracle, whose collections used to empty the pool (32 MiB at p = 1), the
// figures are the same, and New runs once, as in the original. With
// "both", each task also takes a 1 MiB buffer from a channel used as a
// free list: 3 MiB a task in progress, and the profile's pool counts the
// sync.Pool's Gets alone (its reused count at most its Gets).
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
		env    []string
		reused bool
	}{
		{"tasks", nil, true}, {"serial", nil, false}, {"both", nil, true},
		{"tasks", []string{"SPGO_CENSUS=oracle"}, true}, {"serial", []string{"SPGO_CENSUS=oracle"}, false},
	} {
		t.Run(c.arg+strings.Join(c.env, ""), func(t *testing.T) {
			want, wantErr := runArgs(t, filepath.Join(orig, "pool"), "", []string{c.arg})
			pf := filepath.Join(t.TempDir(), "p.json")
			got, gotErr := runArgs(t, filepath.Join(inst, "pool"), pf, []string{c.arg}, c.env...)
			if got != want {
				t.Errorf("stdout %q, original %q", got, want)
			}
			if !strings.Contains(gotErr, "new 1\n") || c.arg == "serial" && !strings.Contains(wantErr, "new 1\n") {
				t.Errorf("New did not run once: instrumented %q, original %q", gotErr, wantErr)
			}
			p, err := profile.ReadFile(pf)
			if err != nil {
				t.Fatal(err)
			}
			r := p.Roots[0]
			if !r.Exact || r.Unbounded {
				t.Errorf("exact %v, unbounded %v; want exact; reasons %q", r.Exact, r.Unbounded, r.Reasons)
			}
			if r.Pool == nil || r.Pool.Gets != 16 || r.Pool.Reused != 15 {
				t.Errorf("pool %+v, want 15 of 16 Gets reused", r.Pool)
			}
			const buf = 2 << 20
			for _, q := range []int64{1, 2, 8, 16, 64} {
				m, _ := r.MHWMAt(int(q))
				want := min(q, 16) * buf
				if !c.reused {
					want = buf
				}
				if c.arg == "both" {
					want = min(q, 16) * (buf + buf/2)
				}
				if m < want || m > want+slack(want) {
					t.Errorf("MHWM_%d = %d, want %d", q, m, want)
				}
			}
		})
	}
}
