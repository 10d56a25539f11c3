// Package report formats spgo profiles for people: the MHWM table per
// root, the figures' exactness and the lines responsible.
package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spgo/spgo/rtlib/profile"
)

// Options controls a text report.
type Options struct {
	// Ps are the processor counts shown; nil is 1, 2, 4, … up to PMax
	// (and PMax itself) in the MHWM table, and every p simulated in the
	// table of simulated schedules.
	Ps []int
	// Lines is how many lines to list per root (the largest shares of
	// the worst case at Q, and the largest at the simulated
	// work-stealing peak of the largest p shown); 0 lists none.
	Lines int
	// Q is the processor count of the per-line table; 0 is the largest.
	Q int
	// Root, when set, limits the report to the root of that name.
	Root string
	// By groups the worst case at Q: "line" (default, the per-line
	// table) or "type" (the table by type, ByType).
	By string
}

// SelectRoots returns the roots of p named name, or all of them when name
// is empty; an unknown name is an error that lists the names there are.
func SelectRoots(p *profile.Profile, name string) ([]*profile.Root, error) {
	var out []*profile.Root
	var names []string
	for i := range p.Roots {
		r := &p.Roots[i]
		names = append(names, r.Name)
		if name == "" || r.Name == name {
			out = append(out, r)
		}
	}
	if name != "" && len(out) == 0 {
		if len(names) == 0 {
			return nil, fmt.Errorf("no root %q: the profile has no roots", name)
		}
		const show = 20
		list := strings.Join(names[:min(len(names), show)], ", ")
		if len(names) > show {
			list += fmt.Sprintf(", … (%d in all)", len(names))
		}
		return nil, fmt.Errorf("no root %q in the profile; roots: %s", name, list)
	}
	return out, nil
}

// DefaultPs returns 1, 2, 4, … ≤ pmax, and pmax.
func DefaultPs(pmax int) []int {
	var ps []int
	for p := 1; p <= pmax && p <= profile.MaxPMax; p *= 2 {
		ps = append(ps, p)
	}
	if len(ps) == 0 || ps[len(ps)-1] != pmax {
		ps = append(ps, pmax)
	}
	return ps
}

func (o Options) ps(pmax int) []int {
	if o.Ps == nil {
		return DefaultPs(pmax)
	}
	var ps []int
	for _, p := range o.Ps {
		if p >= 1 && p <= pmax {
			ps = append(ps, p)
		}
	}
	return ps
}

// Text writes the report of every root of p.
func Text(w io.Writer, p *profile.Profile, o Options) error {
	roots, err := SelectRoots(p, o.Root)
	if err != nil {
		return err
	}
	if o.Q < 0 || o.Q > p.PMax { // 0: the largest
		return fmt.Errorf("p = %d is outside the profile (pmax %d)", o.Q, p.PMax)
	}
	for _, q := range o.Ps {
		if q < 1 || q > p.PMax {
			return fmt.Errorf("p = %d is outside the profile (pmax %d)", q, p.PMax)
		}
	}
	ew := &errWriter{w: w}
	if p.Partial {
		fmt.Fprintln(ew, "spgo: partial profile: the program did not end normally; figures cover what ran")
	}
	for _, r := range roots {
		root(ew, p, r, o)
	}
	for _, wn := range p.Warnings {
		if wn.Pos != "" {
			fmt.Fprintf(ew, "spgo: warning: %s: %s\n", wn.Pos, wn.Message)
		} else {
			fmt.Fprintf(ew, "spgo: warning: %s\n", wn.Message)
		}
	}
	return ew.err
}

// exactness says in words whether r's figures are exact, and if not
// what they are: intervals (the largest p's given) or upper bounds.
func exactness(r *profile.Root) string {
	switch {
	case r.Exact:
		return "exact"
	case r.SelfCheckFailed:
		return selfCheckState
	case r.HasInterval():
		lo, hi, _ := r.IntervalAt(len(r.MHWM))
		return fmt.Sprintf("not exact (MHWM_%d between %s and %s)", len(r.MHWM), Bytes(lo), Bytes(hi))
	case r.Unbounded:
		return unboundedState
	}
	return "not exact (an upper bound)"
}

// selfCheckState says what the figures of a root are when the run's own
// observation contradicts them.
const selfCheckState = "not exact (self-check failed: the run held less than the model says; the figures are likely too high)"

// unboundedState says what the figures of a root are when a reason says
// one may be below the truth.
const unboundedState = "not exact (no bound: a figure may be too low)"

func root(w io.Writer, p *profile.Profile, r *profile.Root, o Options) {
	state := "exact"
	interval := !r.Exact && r.HasInterval()
	switch {
	case interval:
		state = "not exact: the truth lies between low and high"
	case !r.Exact:
		state = exactness(r)
	}
	fmt.Fprintf(w, "spgo: %s: %s\n", r.Name, state)
	for _, why := range r.Reasons {
		fmt.Fprintf(w, "  because: %s\n", why)
	}
	ps := o.ps(p.PMax)
	if r.Threshold != nil {
		t := r.Threshold
		if t.AtLeastHalf {
			fmt.Fprintf(w, "  threshold: MHWM_%d ≥ %s (half of M = %s)\n", t.P, Bytes(t.M/2), Bytes(t.M))
		} else {
			fmt.Fprintf(w, "  threshold: MHWM_%d < %s\n", t.P, Bytes(t.M))
		}
	} else if len(r.MHWM) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "  p\t")
		for _, q := range ps {
			fmt.Fprintf(tw, "%d\t", q)
		}
		fmt.Fprint(tw, "\n  MHWM\t")
		for _, q := range ps {
			v, _ := r.MHWMAt(q)
			fmt.Fprintf(tw, "%s\t", Bytes(v))
		}
		fmt.Fprintln(tw)
		if interval {
			for _, row := range []struct {
				name string
				high bool
			}{{"low", false}, {"high", true}} {
				fmt.Fprintf(tw, "  %s\t", row.name)
				for _, q := range ps {
					lo, hi, _ := r.IntervalAt(q)
					if row.high {
						lo = hi
					}
					fmt.Fprintf(tw, "%s\t", Bytes(lo))
				}
				fmt.Fprintln(tw)
			}
		}
		if r.Stacks != nil && r.Stacks.Goroutines > 0 {
			fmt.Fprint(tw, "  +stacks\t")
			for _, q := range ps {
				v, _, _, _ := r.TotalAt(q)
				fmt.Fprintf(tw, "%s\t", Bytes(v))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		stacksLine(w, r, p.PMax)
	}
	serial := Bytes(r.SerialPeak)
	if interval && r.SerialHigh != 0 {
		serial += fmt.Sprintf(" (truth %s to %s)", Bytes(r.SerialLow), Bytes(r.SerialHigh))
	}
	fmt.Fprintf(w, "  serial peak %s; work %d, span %d, %d strands, %d spawns; %d censuses, at most %s allocated between two\n",
		serial, r.Work, r.Span, r.Strands, r.Spawns, r.Censuses, Bytes(r.CensusError))
	simulated(w, r, o.Ps, o.Lines)
	workSpan(w, r, o.Lines)
	if o.Lines > 0 && len(r.MHWM) > 0 {
		q := o.Q
		if q == 0 {
			q = p.PMax
		}
		if o.By == "type" {
			typesTable(w, r, q, o.Lines)
		} else {
			lines(w, r, q, o.Lines)
		}
	}
}

// lineShare is one row of the per-line table.
type lineShare struct {
	l     *profile.Line
	bytes int64
	split profile.Split
}

// topLines returns the lines with a share of MHWM_q, largest first (ties
// in file and line order).
func topLines(r *profile.Root, q int) []lineShare {
	var ls []lineShare
	for i := range r.Lines {
		l := &r.Lines[i]
		if b, sp, ok := r.LineMHWM(l, q); ok && b != 0 {
			ls = append(ls, lineShare{l, b, sp})
		}
	}
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].bytes > ls[j].bytes })
	return ls
}

// lines lists the largest shares of MHWM_q with their split and source.
func lines(w io.Writer, r *profile.Root, q, n int) {
	total, _ := r.MHWMAt(q)
	if !sharesAt(w, r, q) {
		return
	}
	ls := topLines(r, q)
	if len(ls) == 0 {
		return
	}
	fmt.Fprintf(w, "  lines in the worst case at p=%d (MHWM_%d = %s):\n", q, q, Bytes(total))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "    line\tfunction\tbytes\tshare\trunning\tcompleted\tsuspended\tallocated\tsource\n")
	more := len(ls) - n
	for i, s := range ls {
		if i == n {
			break
		}
		l := s.l
		share, how := shareOf(s.bytes, total), allocated(l.AllocBytes, l.Allocs)
		fmt.Fprintf(tw, "    %s:%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.File, l.Line, l.Func, Bytes(s.bytes), share,
			dash(s.split.Running), dash(s.split.Completed), dash(s.split.Suspended), how, l.Text)
	}
	tw.Flush()
	if more > 0 {
		fmt.Fprintf(w, "    … %d more lines\n", more)
	}
}

// sharesAt reports whether r has per-line shares of MHWM_q, and says
// why not on w when it has none.
func sharesAt(w io.Writer, r *profile.Root, q int) bool {
	if _, ok := r.AttributedAt(q); !ok {
		fmt.Fprintf(w, "  no per-line figures for p=%d: %s\n", q, attributedHint(r))
		return false
	}
	return true
}

// shareOf formats part as a percentage of total, "-" for no total.
func shareOf(part, total int64) string {
	if total <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(total))
}

// allocated says what was allocated: "bytes in n", or the bytes of
// uninstrumented code, whose allocations are not counted.
func allocated(bytes, n int64) string {
	if n == 0 {
		return Bytes(bytes) + " by uninstrumented code"
	}
	return fmt.Sprintf("%s in %d", Bytes(bytes), n)
}

// dash formats a byte count, "-" for none.
func dash(n int64) string {
	if n == 0 {
		return "-"
	}
	return Bytes(n)
}

// Bytes formats n bytes with a binary unit and one decimal.
func Bytes(n int64) string {
	neg := ""
	if n < 0 {
		neg, n = "-", -n
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return neg + strconv.FormatInt(n, 10) + " B"
	}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return neg + strings.TrimSuffix(s, ".0") + " " + units[u]
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return len(b), nil
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, nil
}

// stacksLine says what the +stacks row is, how exact, and that the MHWM
// row (the heap) is the headline that budgets and diffs use.
func stacksLine(w io.Writer, r *profile.Root, pmax int) {
	if r.Stacks != nil && r.Stacks.Goroutines > 0 {
		fmt.Fprintf(w, "  %s\n", stacksNote(r, pmax))
	}
	if s := poolNote(r); s != "" {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

// poolNote says how r used sync.Pool, beside the figures that charge
// every reused object as allocated; "" when r reused none.
func poolNote(r *profile.Root) string {
	q := r.Pool
	if q == nil || q.Reused == 0 {
		return ""
	}
	return fmt.Sprintf("sync.Pool: this run served %d of %d Gets with an object put back; the figures count each of them as allocated until its Put, since a parallel schedule may find the pool empty.", q.Reused, q.Gets)
}

// stacksNote says in words what r's total with goroutine stacks is and
// how exact; the text report and the HTML page both show it.
func stacksNote(r *profile.Root, pmax int) string {
	st := r.Stacks
	state := "exact"
	if !st.Exact {
		if _, lo, hi, ok := r.TotalAt(pmax); ok && hi != 0 {
			state = fmt.Sprintf("not exact: at p=%d between %s and %s", pmax, Bytes(lo), Bytes(hi))
		} else {
			state = "not exact, no bound"
		}
	}
	s := fmt.Sprintf("MHWM is the heap (the headline: budgets and diffs use it); +stacks adds the stacks of the %s the root started, %s each from go statement to join: serial peak %s, %s.",
		goroutines(st.Goroutines), Bytes(st.StartBytes), Bytes(st.SerialPeak), state)
	if st.Grown > 0 {
		s += fmt.Sprintf(" Frames of %s needed more than %s, %s more in all, counted where seen; the instrumented frames are larger than the original's, so the low ends leave it out.",
			goroutines(st.Grown), Bytes(st.StartBytes), Bytes(st.GrownBytes))
	}
	return s
}

// goroutines is "1 goroutine" or "n goroutines".
func goroutines(n int64) string {
	if n == 1 {
		return "1 goroutine"
	}
	return fmt.Sprintf("%d goroutines", n)
}
