package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/internal/report"
	sprof "github.com/spgo/spgo/rtlib/profile"
)

// TestRegressionGate is the CI gate end to end: the tiles example is
// profiled as it is and after a change that moves its lines down and
// makes each tile's scratch buffer 1 MiB larger. MHWM_64 grows by
// 16 MiB (16 tiles run at once), all of it on the scratch line, which
// still matches its baseline although its number changed.
func TestRegressionGate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented programs")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "spbuild")
	if out, err := exec.Command("go", "build", "-o", bin, "../spbuild").CombinedOutput(); err != nil {
		t.Fatalf("build spbuild: %v\n%s", err, out)
	}
	src := "../../testdata/examples/tiles"
	profiles := map[string]string{}
	for _, v := range []string{"base", "change"} {
		dir := filepath.Join(tmp, v)
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		if v == "change" {
			main := filepath.Join(dir, "main.go")
			data, err := os.ReadFile(main)
			if err != nil {
				t.Fatal(err)
			}
			s := strings.Replace(string(data), "Scratch = 2 << 20", "Scratch = 3 << 20", 1)
			s = strings.Replace(s, "func render(", "// render got a bigger buffer.\n//\n// (Three lines added.)\nfunc render(", 1)
			if s == string(data) {
				t.Fatal("the example changed: the test's edit no longer applies")
			}
			os.WriteFile(main, []byte(s), 0o644)
		}
		profiles[v] = filepath.Join(tmp, v+".json")
		cmd := exec.Command(bin, "run", "-q", "-json", profiles[v], ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SPGO_CACHE="+filepath.Join(tmp, "cache"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("spbuild run (%s): %v\n%s", v, err, out)
		}
	}

	stdout, stderr, code := spreport("diff", "-max-increase", "5%", profiles["base"], profiles["change"])
	if code != 1 {
		t.Fatalf("gate at 5%%: exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	var lines []string
	for _, l := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(l, "spgo diff: warning:") { // two builds, two program names
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 || !strings.Contains(lines[1], "main.main: 34") || !strings.Contains(lines[1], "FAIL: grew more than 5%") ||
		!strings.Contains(lines[2], "main.go:34  main.render") || !strings.Contains(lines[2], "scratch := make([]byte, Scratch)") {
		t.Errorf("the responsible line is not first:\n%s", stdout)
	}
	if _, _, code := spreport("diff", "-max-increase", "60%", profiles["base"], profiles["change"]); code != 0 {
		t.Errorf("gate at 60%%: exit %d, want 0", code)
	}
	if _, _, code := spreport("diff", "-max-increase", "17MiB", profiles["base"], profiles["change"]); code != 0 {
		t.Errorf("gate at 17MiB: exit %d, want 0", code)
	}

	// The figures: exact sums, the analytic growth, the renumbered match.
	base, err := sprof.ReadFile(profiles["base"])
	if err != nil {
		t.Fatal(err)
	}
	change, err := sprof.ReadFile(profiles["change"])
	if err != nil {
		t.Fatal(err)
	}
	d, err := report.DiffProfiles(base, change, "base", "change", 0)
	if err != nil {
		t.Fatal(err)
	}
	r := d.Roots[0]
	sum := int64(0)
	for _, l := range r.Lines {
		sum += l.Delta()
	}
	if sum != r.Delta() {
		t.Errorf("line deltas sum to %d, MHWM delta %d", sum, r.Delta())
	}
	// The runtime's own few KiB charged to the lines differ a little
	// between the two runs.
	const mib, slack = 1 << 20, 64 << 10
	near := func(n int64) bool { return n >= 16*mib-slack && n <= 16*mib+slack }
	if got := r.Delta(); !near(got) {
		t.Errorf("MHWM_64 grew by %d, want 16 MiB ± 64 KiB", got)
	}
	if l := r.Lines[0]; l.BaseLine != 31 || l.Line != 34 || !near(l.Delta()) {
		t.Errorf("first line %+v, want the scratch line 31 → 34, +16 MiB", l)
	}
}
