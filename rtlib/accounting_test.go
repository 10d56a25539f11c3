package rtlib_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spgo/spgo/rewrite"
	"github.com/spgo/spgo/rtlib/profile"
)

// accCase is a constructed program of testdata/accounting with its
// analytic figures (see the comment at the top of each program).
type accCase struct {
	name   string
	mhwm   func(p int64) int64 // the true MHWM_p
	serial int64               // the true serial peak, 0: not checked
	exact  bool
	// For inexact programs, the figures must be sound (at least mhwm) and
	// not absurd (at most most).
	most func(p int64) int64
	why  string // a reason must contain it
}

const (
	kib = 1 << 10
	mib = 1 << 20
)

var accCases = []accCase{
	{name: "tiles", exact: true, serial: 8*64*kib + mib,
		mhwm: func(p int64) int64 { return 8*64*kib + min(p, 8)*mib }},
	{name: "limit", exact: true,
		mhwm: func(p int64) int64 { return 8*64*kib + min(p, 8, 3)*mib }},
	{name: "explosion", exact: true, serial: mib,
		mhwm: func(p int64) int64 { return 8 * mib }},
	{name: "tiny", exact: true, serial: mib,
		mhwm: func(p int64) int64 { return mib }},
	{name: "keep", exact: true, serial: 16 * 256 * kib,
		mhwm: func(p int64) int64 { return 16 * 256 * kib }},
	{name: "later", exact: true, serial: 3 * mib,
		mhwm: func(p int64) int64 { return 3 * mib }},
	{name: "pipeline", why: "channel communication between goroutines",
		mhwm: func(p int64) int64 { return 2 * 64 * kib },
		most: func(p int64) int64 { return 2 * 32 * 64 * kib }},
	{name: "workerpool", why: "channel communication between goroutines",
		mhwm: func(p int64) int64 { return 16*16*kib + min(p, 4)*512*kib },
		most: func(p int64) int64 { return 16 * (16*kib + 512*kib) }},
}

// slack is what a figure may exceed the true value by: 3 % + 256 KiB
// (the runtime's and the program's small allocations, censuses).
func slack(v int64) int64 { return v*3/100 + 256*kib }

// TestAccounting runs the constructed programs instrumented and checks
// their figures against the analytic values, for p = 1, 2, 4, …, 64: never
// below (sound), and within 3 % + 256 KiB for the exact ones.
func TestAccounting(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, c := range accCases {
		patterns = append(patterns, "./rtlib/testdata/accounting/"+c.name)
	}
	res, err := rewrite.Packages(context.Background(), rewrite.Config{Dir: root}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	overlay, err := res.WriteOverlay(filepath.Join(tmp, "overlay"))
	if err != nil {
		t.Fatal(err)
	}
	orig, inst := filepath.Join(tmp, "orig")+"/", filepath.Join(tmp, "inst")+"/"
	build(t, root, append([]string{"-o", orig}, patterns...))
	build(t, root, append([]string{"-o", inst, "-overlay", overlay}, patterns...))
	for _, c := range accCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			want, _ := run(t, filepath.Join(orig, c.name), "")
			pf := filepath.Join(t.TempDir(), "p.json")
			got, _ := run(t, filepath.Join(inst, c.name), pf)
			if got != want {
				t.Errorf("stdout %q, original %q", got, want)
			}
			p, err := profile.ReadFile(pf)
			if err != nil {
				t.Fatal(err)
			}
			if p.PMax != 64 || len(p.Roots) != 1 || p.Roots[0].Name != "main.main" {
				t.Fatalf("pmax %d, %d roots", p.PMax, len(p.Roots))
			}
			r := p.Roots[0]
			if r.Exact != c.exact {
				t.Errorf("exact = %v, want %v; reasons %q", r.Exact, c.exact, r.Reasons)
			}
			if c.why != "" && !strings.Contains(strings.Join(r.Reasons, "\n"), c.why) {
				t.Errorf("no reason says %q: %q", c.why, r.Reasons)
			}
			for q := int64(1); q <= 64; q *= 2 {
				m, _ := r.MHWMAt(int(q))
				lo := c.mhwm(q)
				hi := lo + slack(lo)
				if c.most != nil {
					hi = c.most(q) + slack(c.most(q))
				}
				if m < lo || m > hi {
					t.Errorf("MHWM_%d = %d, want %d … %d", q, m, lo, hi)
				}
			}
			if c.serial > 0 && (r.SerialPeak < c.serial || r.SerialPeak > c.serial+slack(c.serial)) {
				t.Errorf("serial peak %d, want %d + at most %d", r.SerialPeak, c.serial, slack(c.serial))
			}
			var sum int64
			for _, l := range r.Lines {
				sum += l.MHWMBytes["64"]
			}
			if m, _ := r.MHWMAt(64); sum != m {
				t.Errorf("per-line MHWM_64 sums to %d, MHWM_64 = %d", sum, m)
			}
		})
	}
}

func build(t *testing.T, dir string, args []string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// run runs bin with the profile going to pf ("": none) and returns its
// stdout and stderr.
func run(t *testing.T, bin, pf string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "SPGO_PROFILE="+pf)
	if pf == "" {
		cmd.Env = append(cmd.Env, "SPGO_PROFILE=off")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.Bytes())
	}
	return stdout.String(), stderr.String()
}
