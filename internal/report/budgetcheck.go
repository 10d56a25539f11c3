package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
)

// Budget verdicts.
const (
	// Within: the figure, and the high end of its interval, are at most
	// the budget.
	Within = "within"
	// Over: the figure exceeds the budget.
	Over = "over"
	// MayExceed: the figure is within the budget but the high end of its
	// interval is not, or the root's figures may be too low (Unbounded),
	// so the true worst case may exceed it.
	MayExceed = "may exceed"
)

// BudgetResult is one root's MHWM against one of its budgets.
type BudgetResult struct {
	Root   *profile.Root
	Budget Budget
	// P is the processor count checked: Budget.P, or the largest.
	P int
	// Figure is MHWM_P; Low and High bound the truth (both 0: no
	// interval).
	Figure, Low, High int64
	Verdict           string
}

// Failed reports whether the root failed the budget: a budget bounds
// the worst case, so a figure whose interval reaches past it fails too.
func (r *BudgetResult) Failed() bool { return r.Verdict != Within }

// ValidateBudgets checks that every budget's processor count is one the
// run computes (at most pmax).
func ValidateBudgets(pmax int, sets ...[]Budget) error {
	for _, set := range sets {
		for _, b := range set {
			if b.P > pmax {
				return fmt.Errorf("%s: budget at p = %d, beyond -pmax %d (raise -pmax)", b.Source, b.P, pmax)
			}
		}
	}
	return nil
}

// CheckBudgets checks every root of p against its budgets. sets are in
// precedence order: a root takes its budgets from the first set that
// names it, and there from the first ROOT that matches it (as a switch:
// a file's default * goes last). Roots no budget names are left out.
func CheckBudgets(p *profile.Profile, sets ...[]Budget) ([]BudgetResult, error) {
	if err := ValidateBudgets(p.PMax, sets...); err != nil {
		return nil, err
	}
	var out []BudgetResult
	for i := range p.Roots {
		r := &p.Roots[i]
		for _, b := range budgetsFor(r.Name, sets) {
			q := b.P
			if q == 0 {
				q = p.PMax
			}
			fig, ok := r.MHWMAt(q)
			if !ok {
				return nil, fmt.Errorf("%s: root %s has no MHWM_%d (a threshold-mode run?)", b.Source, r.Name, q)
			}
			res := BudgetResult{Root: r, Budget: b, P: q, Figure: fig}
			res.Low, res.High, _ = r.IntervalAt(q)
			switch {
			case fig > b.Bytes:
				res.Verdict = Over
			case res.High > b.Bytes || r.Unbounded:
				res.Verdict = MayExceed
			default:
				res.Verdict = Within
			}
			out = append(out, res)
		}
	}
	return out, nil
}

// WriteBudgets writes the results: each failure with the n largest
// lines of the worst case at its p, then a summary; with all, the
// budgets met too.
func WriteBudgets(w io.Writer, results []BudgetResult, n int, all bool) error {
	ew := &errWriter{w: w}
	failed := 0
	for i := range results {
		res := &results[i]
		if res.Failed() {
			failed++
		} else if !all {
			continue
		}
		fmt.Fprintf(ew, "spgo budget: %s %s: %s\n", map[bool]string{true: "FAIL", false: "ok"}[res.Failed()], res.Root.Name, res.explain())
		if res.Failed() && n > 0 {
			lines(ew, res.Root, res.P, n)
		}
	}
	switch {
	case len(results) == 0:
		fmt.Fprintln(ew, "spgo budget: no budget names a root that ran")
	case failed > 0:
		fmt.Fprintf(ew, "spgo budget: %d of %d budget(s) failed\n", failed, len(results))
	default:
		fmt.Fprintf(ew, "spgo budget: all %d budget(s) met\n", len(results))
	}
	return ew.err
}

// explain says how the figure stands against the budget, and why a
// root failed.
func (r *BudgetResult) explain() string {
	b := r.Budget.Bytes
	fig := fmt.Sprintf("MHWM_%d = %s", r.P, nearBytes(r.Figure, b))
	budget := Bytes(b)
	if Bytes(r.Figure) != nearBytes(r.Figure, b) || r.High != 0 && Bytes(r.High) != nearBytes(r.High, b) {
		budget += fmt.Sprintf(" (%d B)", b)
	}
	where := fmt.Sprintf("the budget %s (%s)", budget, r.Budget.Source)
	interval := ""
	if r.High != 0 && (!r.Root.Exact || r.Verdict == MayExceed) {
		interval = fmt.Sprintf(", truth between %s and %s", nearBytes(r.Low, b), nearBytes(r.High, b))
	}
	switch r.Verdict {
	case Over:
		s := fmt.Sprintf("%s%s, over %s", fig, interval, where)
		if !r.Root.Exact && r.High == 0 {
			s += "; the figure is an upper bound, the true worst case may be lower"
			if len(r.Root.Reasons) > 0 {
				s += " (" + strings.Join(r.Root.Reasons, "; ") + ")"
			}
		} else if interval != "" && r.Low <= b {
			s += "; only the low end is within it"
		}
		return s
	case MayExceed:
		if r.Root.Unbounded {
			return fmt.Sprintf("%s: the figure is within %s but may be too low, so the worst case may exceed it (%s)", fig, where, strings.Join(r.Root.Reasons, "; "))
		}
		return fmt.Sprintf("%s%s: the figure is within %s but the high end is not, so the worst case may exceed it", fig, interval, where)
	}
	return fmt.Sprintf("%s%s, within %s", fig, interval, where)
}

// nearBytes formats n as Bytes does, with the exact count when that
// would print n the same as the budget b though they differ.
func nearBytes(n, b int64) string {
	s := Bytes(n)
	if n != b && s == Bytes(b) {
		s += fmt.Sprintf(" (%d B)", n)
	}
	return s
}
