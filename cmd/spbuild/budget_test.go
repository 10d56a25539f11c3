package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/driver"
)

// TestBudget runs spbuild test on testdata/examples/budget (TestFan:
// MHWM_p = min(p, 8)·1 MiB; TestOne: 1 MiB, with the marker
// //spgo:budget 2MiB): a budget below TestFan's MHWM_4 fails the run
// and prints the lines responsible, the example's budgets.txt (raised)
// passes, a lowered marker fails, and a bad budget is bad usage.
func TestBudget(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", "budget"))
	if err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, dir)
	cache, tmp := t.TempDir(), t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tight := write("tight.txt", "# below MHWM_4 = 4 MiB\nTestFan 4 3MiB\n")
	// The example with TestOne's marker lowered below its 1 MiB.
	src, err := os.ReadFile(filepath.Join(dir, "fan_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	lowered := writeTree(t, map[string]string{
		"go.mod":      "module example.com/budget\n\ngo 1.22\n",
		"fan.go":      readFile(t, filepath.Join(dir, "fan.go")),
		"fan_test.go": strings.Replace(string(src), "//spgo:budget 2MiB", "//spgo:budget 512KiB", 1),
	})

	for _, tt := range []struct {
		name   string
		dir    string
		args   []string
		code   int
		stderr []string
	}{
		{"tight file", dir, []string{"-budget", tight}, 1, []string{
			"spgo budget: FAIL example.com/budget example.com/budget.TestFan: MHWM_4 = ",
			"over the budget 3 MiB (" + tight + ":2)",
			"lines in the worst case at p=4",
			"fan.go:26  example.com/budget.work",
			"scratch := make([]byte, Scratch)",
			"spgo budget: ok example.com/budget example.com/budget.TestOne: MHWM_64 = ",
			"within the budget 2 MiB (fan_test.go:15)",
			"spgo budget: 1 of 2 budget(s) failed",
		}},
		{"raised file", dir, []string{"-q", "-budget", "budgets.txt"}, 0, []string{"spgo budget: all 3 budget(s) met"}},
		{"lowered marker", lowered, []string{"-q", "-budget", filepath.Join(dir, "budgets.txt")}, 1, []string{
			"spgo budget: FAIL example.com/budget example.com/budget.TestOne: MHWM_64 = 1 MiB",
			"over the budget 512 KiB (fan_test.go:15)",
			"spgo budget: 1 of 3 budget(s) failed",
		}},
		{"beyond pmax", dir, []string{"-pmax", "2", "-budget", tight}, 2, []string{"spbuild test: " + tight + ":2: budget at p = 4, beyond -pmax 2 (raise -pmax)"}},
		{"bad file", dir, []string{"-budget", write("bad.txt", "TestFan 4\n")}, 2, []string{"bad.txt:1: want ROOT P SIZE"}},
		{"missing file", dir, []string{"-budget", filepath.Join(tmp, "none.txt")}, 2, []string{"spbuild test: -budget: open "}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := spbuild(t, tt.dir, cache, append([]string{"test"}, append(tt.args, ".")...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tt.code != 2 && !strings.Contains(stdout, "ok  \texample.com/budget") {
				t.Errorf("the tests themselves should pass:\n%s", stdout)
			}
		})
	}
	if treeHash(t, dir) != before {
		t.Error("spbuild test changed the example's tree")
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestMarkers reads //spgo:budget markers from test files, without
// running anything.
func TestMarkers(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      string // budgets, or the error
	}{
		{"two", "package p\n\nimport \"testing\"\n\n// TestA is big.\n//\n//spgo:budget 64MiB p=8\n//spgo:budget 8MiB p=1\nfunc TestA(t *testing.T) {}\n\n//spgo:budget 1KiB\nfunc BenchmarkB(b *testing.B) {}\n",
			"example.com/p.TestA 8 64 MiB @x_test.go:7|example.com/p.TestA 1 8 MiB @x_test.go:8|example.com/p.BenchmarkB max 1 KiB @x_test.go:11"},
		{"not a marker", "package p\n\n//spgo:budgets 1KiB\nfunc TestA() {}\n\n// spgo:budget 1KiB (a space: prose)\nfunc TestB() {}\n", ""},
		{"not a test", "package p\n\n//spgo:budget 1MiB\nfunc helper() {}\n", "x_test.go:3: //spgo:budget on helper, which is not a test, benchmark, fuzz target or example"},
		{"a method", "package p\n\ntype s struct{}\n\n//spgo:budget 1MiB\nfunc (s) TestA() {}\n", "x_test.go:5: //spgo:budget on TestA, which is not a test"},
		{"malformed", "package p\n\n//spgo:budget p=8\nfunc TestA() {}\n", `x_test.go:3: bad size "p=8"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"x_test.go": tt.src, "x.go": "package p\n\n//spgo:budget 1MiB\nfunc TestNotInATestFile() {}\n"})
			t.Chdir(dir)
			bs, err := markers(driver.Target{ImportPath: "example.com/p", Dir: dir})
			var got []string
			for _, b := range bs {
				got = append(got, b.String()+" @"+b.Source)
			}
			s := strings.Join(got, "|")
			if err != nil {
				s = err.Error()
			}
			if !strings.HasPrefix(s, tt.want) || (tt.want == "") != (s == "") {
				t.Errorf("got %q, want %q", s, tt.want)
			}
		})
	}
}
