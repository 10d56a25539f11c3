package report

import (
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

const budgetFile = `# spgo budgets: ROOT P SIZE
example.com/tiles.TestRender  max  3MiB   # the one tile
TestRenderAll   4    8MiB
TestRenderAll   max  40MiB
Bench*          1    1GiB
*               max  64MiB
`

func TestParseBudgets(t *testing.T) {
	bs, err := ParseBudgets(strings.NewReader(budgetFile), "budgets.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range bs {
		got = append(got, b.String()+" @"+b.Source)
	}
	want := "example.com/tiles.TestRender max 3 MiB @budgets.txt:2|TestRenderAll 4 8 MiB @budgets.txt:3|" +
		"TestRenderAll max 40 MiB @budgets.txt:4|Bench* 1 1 GiB @budgets.txt:5|* max 64 MiB @budgets.txt:6"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("budgets\n%s\nwant\n%s", s, want)
	}
	for _, tt := range []struct{ in, err string }{
		{"TestX 8", "b:1: want ROOT P SIZE (as TestRender 8 64MiB), got 2 fields"},
		{"TestX 0 1MiB", `b:1: bad processor count "0"`},
		{"TestX all 1MiB", `b:1: bad processor count "all"`},
		{"\nTestX 8 64", `b:2: bad size "64": want a size with its unit`},
		{"TestX 8 lots", `b:1: bad size "lots"`},
		{"Test[ 8 1MiB", `b:1: bad root "Test["`},
		{"TestX 8 1MiB extra", "got 4 fields"},
		{"example.com/p. 8 1MiB", `b:1: bad root "example.com/p."`},
	} {
		if _, err := ParseBudgets(strings.NewReader(tt.in), "b"); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
		}
	}
}

func TestParseMarker(t *testing.T) {
	for _, tt := range []struct {
		args, want, err string
	}{
		{args: "64MiB p=8", want: "example.com/p.TestX 8 64 MiB"},
		{args: " 512KiB ", want: "example.com/p.TestX max 512 KiB"},
		{args: "64MiB 8", err: "want //spgo:budget SIZE [p=N]"},
		{args: "", err: "want //spgo:budget SIZE [p=N]"},
		{args: "64MiB p=x", err: `bad processor count "x"`},
	} {
		b, err := ParseMarker(tt.args, "example.com/p", "TestX", "x_test.go:3")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || b.String() != tt.want {
			t.Errorf("%q: %s, %v; want %s", tt.args, b, err, tt.want)
		}
	}
}

func TestBudgetsFor(t *testing.T) {
	file, err := ParseBudgets(strings.NewReader(budgetFile), "budgets.txt")
	if err != nil {
		t.Fatal(err)
	}
	marker, _ := ParseMarker("2MiB", "example.com/tiles", "TestMarked", "t_test.go:9")
	for _, tt := range []struct{ root, want string }{
		{"example.com/tiles main.TestRender", "budgets.txt:2"},
		{"example.com/other main.TestRender", "budgets.txt:6"}, // another package's TestRender: the default
		{"example.com/tiles main.TestRenderAll", "budgets.txt:3 budgets.txt:4"},
		{"main.TestRenderAll", "budgets.txt:3 budgets.txt:4"}, // one package's profile
		{"example.com/tiles.TestRender", "budgets.txt:2"},
		{"example.com/tiles.TestRender#2", "budgets.txt:2"}, // its second run (go test -count=2)
		{"tiles tiles.TestRender", "budgets.txt:6"},
		{"example.com/x x.BenchmarkSort", "budgets.txt:5"},
		{"example.com/tiles main.TestMarked", "t_test.go:9"}, // the marker beats the file's default
		{"example.com/other main.TestMarked", "budgets.txt:6"},
		{"main.main", "budgets.txt:6"},
	} {
		var got []string
		for _, b := range budgetsFor(tt.root, [][]Budget{{marker}, file}) {
			got = append(got, b.Source)
		}
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("%s: budgets %s, want %s", tt.root, s, tt.want)
		}
	}
	if got := budgetsFor("main.TestY", [][]Budget{{marker}}); got != nil {
		t.Errorf("an unbudgeted root has budgets %v", got)
	}
}

// budgetProfile has four roots at p = 1, 2 with figures 10 MiB and
// 20 MiB: exact, inexact with an interval, an upper bound, and exact
// with a narrow interval.
func budgetProfile() *profile.Profile {
	root := func(name string, exact bool, lo, hi int64) profile.Root {
		r := tRoot(name, tLine("w.go", 7, "p.work", "buf := make([]byte, n)", 10*mib, 20*mib))
		r.Exact = exact
		if hi != 0 {
			r.MHWM[1].Low, r.MHWM[1].High = lo, hi
			r.MHWM[0].Low, r.MHWM[0].High = 10*mib, 10*mib
		}
		if !exact && hi == 0 {
			r.Reasons = []string{"w.go:3: channel communication"}
		}
		return r
	}
	return tProf(
		root("example.com/p p.TestExact", true, 0, 0),
		root("example.com/p p.TestInterval", false, 18*mib, 26*mib),
		root("example.com/p p.TestBound", false, 0, 0),
		root("example.com/p p.TestNarrow", true, 20*mib-10*kib, 20*mib+10*kib),
	)
}

func TestCheckBudgets(t *testing.T) {
	p := budgetProfile()
	for _, tt := range []struct {
		budget string
		want   string // verdict per root, in order
	}{
		{"* max 32MiB", "within within within within"},
		{"* 2 20MiB", "within may exceed within may exceed"},
		{"* 2 19MiB", "over over over over"},
		{"* 1 10MiB", "within within within within"},
		{"TestExact max 1MiB\nTest* max 64MiB", "over within within within"},
	} {
		bs, err := ParseBudgets(strings.NewReader(tt.budget), "b")
		if err != nil {
			t.Fatal(err)
		}
		res, err := CheckBudgets(p, bs)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res {
			got = append(got, r.Verdict)
		}
		if s := strings.Join(got, " "); s != tt.want {
			t.Errorf("%q: %s, want %s", tt.budget, s, tt.want)
		}
	}
	bs, _ := ParseBudgets(strings.NewReader("* 3 1MiB"), "b")
	if _, err := CheckBudgets(p, bs); err == nil || !strings.Contains(err.Error(), "b:1: budget at p = 3, beyond -pmax 2 (raise -pmax)") {
		t.Errorf("a budget beyond pmax: %v", err)
	}
}

func TestWriteBudgets(t *testing.T) {
	for _, tt := range []struct {
		name, budget string
		all          bool
	}{
		{"fail", "* 2 20MiB", false},
		{"fail-all", "TestExact 2 19MiB\nTestBound max 19MiB\nTestInterval 2 19MiB\nTestNarrow max 30MiB", true},
		{"pass", "* max 64MiB", true},
		{"none", "TestOther max 1MiB", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bs, err := ParseBudgets(strings.NewReader(tt.budget), "budgets.txt")
			if err != nil {
				t.Fatal(err)
			}
			res, err := CheckBudgets(budgetProfile(), bs)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteBudgets(&b, res, 3, tt.all); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "budget/"+tt.name+".golden", b.String())
		})
	}
}

// TestUnboundedRoot: a root whose figures may be below the truth
// (profile.Root.Unbounded) is said to have no bound in the text and HTML
// reports, and no budget check can pass on it: the figure within the
// budget is "may exceed", with the reasons.
func TestUnboundedRoot(t *testing.T) {
	r := tRoot("example.com/p p.TestPool", tLine("w.go", 7, "p.work", "b := pool.Get().(*[]byte)", 2*mib, 2*mib))
	r.Exact, r.Unbounded = false, true
	r.Reasons = []string{"w.go:7: sync.Pool.Get reused an object a goroutine put back"}
	p := tProf(r)
	bs, err := ParseBudgets(strings.NewReader("* max 32MiB"), "b")
	if err != nil {
		t.Fatal(err)
	}
	res, err := CheckBudgets(p, bs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Verdict != MayExceed || !res[0].Failed() {
		t.Fatalf("verdicts %+v, want one %q", res, MayExceed)
	}
	var b strings.Builder
	if err := WriteBudgets(&b, res, 3, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "may be too low") || !strings.Contains(b.String(), "sync.Pool.Get reused") {
		t.Errorf("budget report does not say the figure may be too low, and why:\n%s", b.String())
	}
	b.Reset()
	if err := Text(&b, p, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "no bound: a figure may be too low") || strings.Contains(b.String(), "upper bound") {
		t.Errorf("text report:\n%s", b.String())
	}
	b.Reset()
	if err := WriteHTML(&b, p, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "not exact: no bound") || strings.Contains(b.String(), "upper bound") {
		t.Errorf("HTML report says an upper bound, or not that there is none")
	}
}
