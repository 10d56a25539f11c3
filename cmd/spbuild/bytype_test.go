package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	pprof "github.com/google/pprof/profile"

	"github.com/spgo/spgo/internal/report"
	"github.com/spgo/spgo/rtlib/profile"
)

// TestExampleTypes runs spbuild on testdata/examples/types and checks
// the by-type figures end to end: the rewriter's static types reach the
// profile, each type holds its analytic share of MHWM_p (the example's
// comment: min(p, 4) MiB of []byte, min(p, 4)·512 KiB of []int64,
// min(p, 4)·256 KiB of *main.block, 512 KiB of string) within 3 % + 16
// KiB, the heap samples are split by type, and the pprof profile of
// -by type carries the types as labels.
func TestExampleTypes(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", "types"))
	if err != nil {
		t.Fatal(err)
	}
	p := spbuildProfile(t, dir, "run", "-q", ".")
	r := &p.Roots[0]
	for _, q := range []int64{1, 2, 4, 64} {
		got := map[string]int64{}
		for _, ts := range report.ByType(r, int(q)) {
			got[ts.Type] = ts.Bytes
		}
		n := min(q, 4)
		for name, want := range map[string]int64{"[]byte": n * mib, "[]int64": n * 512 * kib, "*main.block": n * 256 * kib, "string": 512 * kib} {
			if g := got[name]; g < want || g > want+want*3/100+16*kib {
				t.Errorf("p=%d: %s holds %d, want %d (+3%% + 16 KiB); all: %v", q, name, g, want, got)
			}
		}
	}
	typed := 0
	for _, s := range r.Heap.Samples {
		if s.Bytes != 0 && len(s.Types) > 0 {
			typed++
		}
	}
	if typed == 0 {
		t.Error("no heap sample is split by type")
	}
	var buf bytes.Buffer
	if err := report.WritePprof(&buf, p, report.PprofOptions{By: "type", Qs: []int{4}}); err != nil {
		t.Fatal(err)
	}
	pp, err := pprof.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var block int64
	for _, s := range pp.Sample {
		if s.Label["type"][0] == "*main.block" {
			block += s.Value[0]
		}
	}
	if block < 1*mib || block > 1*mib+mib*3/100+16*kib {
		t.Errorf("pprof: *main.block samples hold %d at p = 4, want 1 MiB", block)
	}
	if _, err := os.Stat(filepath.Join(dir, "spgo-profile.json")); err == nil {
		t.Error("spbuild left a profile in the example's directory")
	}
}

// spbuildProfile runs spbuild in dir with args and -json, and returns
// the profile it wrote.
func spbuildProfile(t *testing.T, dir string, args ...string) *profile.Profile {
	t.Helper()
	prof := filepath.Join(t.TempDir(), "p.json")
	args = append(args[:len(args)-1:len(args)-1], "-json", prof, args[len(args)-1])
	_, stderr, code := spbuild(t, dir, t.TempDir(), args...)
	if code != 0 {
		t.Fatalf("spbuild %v: exit %d\n%s", args, code, stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
