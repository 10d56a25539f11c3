package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spgo/spgo/rtlib/profile"
)

// The simulated schedules of a root (Root.Simulated): a replay of its
// recorded graph under each policy, beside MHWM_p. Text and HTML share
// the arrangement below.

// simHeader introduces the simulated figures wherever they are shown:
// they are not bounds, and they depend on measured durations.
const (
	simHeaderNote = "replay of the recorded run; strand durations measured, figures may vary from run to run"
	simHeader     = "simulated schedules (" + simHeaderNote + ")"
)

// simView is a root's simulated runs as a table: a row per processor
// count, a column per policy.
type simView struct {
	r        *profile.Root
	policies []string // the policies simulated, in profile.SimPolicies order
	rows     []simRow
}

// simRow is one processor count's runs.
type simRow struct {
	p       int
	mhwm    int64
	hasMHWM bool
	runs    []*profile.Simulated // by policies' index; nil where not run
}

// newSimView arranges r's simulated runs; only the p in ps when ps is
// not nil. It returns nil when r has none.
func newSimView(r *profile.Root, ps []int) *simView {
	if len(r.Simulated) == 0 {
		return nil
	}
	v := &simView{r: r}
	for _, pol := range profile.SimPolicies() {
		if slices.ContainsFunc(r.Simulated, func(s profile.Simulated) bool { return s.Policy == pol }) {
			v.policies = append(v.policies, pol)
		}
	}
	var counts []int
	for i := range r.Simulated {
		if p := r.Simulated[i].P; !slices.Contains(counts, p) && (ps == nil || slices.Contains(ps, p)) {
			counts = append(counts, p)
		}
	}
	slices.Sort(counts)
	for _, p := range counts {
		row := simRow{p: p, runs: make([]*profile.Simulated, len(v.policies))}
		row.mhwm, row.hasMHWM = r.MHWMAt(p)
		for i := range r.Simulated {
			if s := &r.Simulated[i]; s.P == p {
				if k := slices.Index(v.policies, s.Policy); k >= 0 && row.runs[k] == nil {
					row.runs[k] = s
				}
			}
		}
		v.rows = append(v.rows, row)
	}
	return v
}

// simulatedPs returns the processor counts r was simulated for, in
// increasing order.
func simulatedPs(r *profile.Root) []int {
	var ps []int
	for i := range r.Simulated {
		if p := r.Simulated[i].P; !slices.Contains(ps, p) {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	return ps
}

// above reports whether run s peaks above the row's MHWM_p.
func (row *simRow) above(s *profile.Simulated) bool {
	return s != nil && row.hasMHWM && s.PeakBytes > row.mhwm
}

// abovePolicies returns the policies that peak above MHWM_p in some
// row.
func (v *simView) abovePolicies() []string {
	var out []string
	for k, pol := range v.policies {
		for i := range v.rows {
			if v.rows[i].above(v.rows[i].runs[k]) {
				out = append(out, pol)
				break
			}
		}
	}
	return out
}

// seeded returns the policies shown with a summary over several seeds,
// and the number of seeds.
func (v *simView) seeded() ([]string, int) {
	var pols []string
	n := 0
	for k, pol := range v.policies {
		for _, row := range v.rows {
			if s := row.runs[k]; s != nil && s.Seeds != nil && s.Seeds.N > 1 {
				pols = append(pols, pol)
				n = max(n, s.Seeds.N)
				break
			}
		}
	}
	if sim := v.r.Simulation; sim != nil && sim.Seeds > 0 {
		n = sim.Seeds
	}
	return pols, n
}

// linesRun returns the ws run whose lines are listed: the one at the
// largest p shown, nil when no row has one.
func (v *simView) linesRun() *profile.Simulated {
	k := slices.Index(v.policies, "ws")
	if k < 0 {
		return nil
	}
	for i := len(v.rows) - 1; i >= 0; i-- {
		if s := v.rows[i].runs[k]; s != nil {
			return s
		}
	}
	return nil
}

// simPeak formats a run's peak: with the range over the seeds after it
// when they differ.
func simPeak(s *profile.Simulated) string {
	out := Bytes(s.PeakBytes)
	if sd := s.Seeds; sd != nil && sd.N > 1 && sd.Min != sd.Max {
		out += " (" + bytesRange(sd.Min, sd.Max) + ")"
	}
	return out
}

// bytesRange formats lo–hi bytes, with the unit once when they share
// it: "3.1–3.5 MiB", "900 KiB–1.2 MiB".
func bytesRange(lo, hi int64) string {
	a, b := Bytes(lo), Bytes(hi)
	na, ua, _ := strings.Cut(a, " ")
	_, ub, _ := strings.Cut(b, " ")
	if ua == ub {
		return na + "–" + b
	}
	return a + "–" + b
}

// aboveNote explains the marked peaks.
func aboveNote(pols []string) string {
	return fmt.Sprintf("above MHWM_p (%s): df, bf and go are not space-efficient schedulers in the sense of the bound "+
		"(they may start new work while a started task waits, and go preempts); MHWM_p bounds the busy-leaves "+
		"(work-stealing) executions of the series-parallel graph", strings.Join(pols, ", "))
}

// syncNote says what the synchronisation edges do to the figures, ""
// when there are none.
func syncNote(sim *profile.Simulation) string {
	if sim == nil || sim.SyncDeps <= 0 {
		return ""
	}
	edges := fmt.Sprintf("%d synchronisation edges that are not series-parallel", sim.SyncDeps)
	if sim.SyncDeps == 1 {
		edges = "1 synchronisation edge that is not series-parallel"
	}
	return "the graph has " + edges + " (channels, locks): MHWM is the bound for the series-parallel relaxation; the simulated peaks are the realistic figures"
}

// seedsNote explains the seeded columns, "" when there are none.
func seedsNote(pols []string, n int) string {
	if len(pols) == 0 {
		return ""
	}
	return fmt.Sprintf("seeded policies (%s): the largest peak over %d seeds, with the range over the seeds where they differ", strings.Join(pols, ", "), n)
}

// simLine is a line live at a simulated peak with what the root's
// lines table says of it.
type simLine struct {
	profile.SimLine
	fn, text string
}

// simLines returns s's lines with bytes, largest first (ties in the
// profile's order), and their functions and source from r's lines.
func simLines(r *profile.Root, s *profile.Simulated) []simLine {
	type pos struct {
		file string
		line int
	}
	known := map[pos]*profile.Line{}
	for i := range r.Lines {
		l := &r.Lines[i]
		if _, ok := known[pos{l.File, l.Line}]; !ok {
			known[pos{l.File, l.Line}] = l
		}
	}
	var out []simLine
	for _, l := range s.Lines {
		if l.Bytes == 0 {
			continue
		}
		sl := simLine{SimLine: l}
		if k := known[pos{l.File, l.Line}]; k != nil {
			sl.fn, sl.text = k.Func, k.Text
		}
		out = append(out, sl)
	}
	slices.SortStableFunc(out, func(a, b simLine) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out
}

// simPos is a simulated line's position, "(unknown)" for bytes of no
// known line.
func simPos(l profile.SimLine) string {
	if l.File == "" && l.Line == 0 {
		return "(unknown)"
	}
	return htmlPos(l.File, l.Line)
}

// simRun describes a run's peak: when, and which seed.
func simRun(s *profile.Simulated) string {
	out := fmt.Sprintf("%s at %s of %s", Bytes(s.PeakBytes), wallTime(s.PeakAtWallNS), wallTime(s.MakespanWallNS))
	if sd := s.Seeds; sd != nil && sd.N > 1 {
		out += fmt.Sprintf(", seed %d of %d", sd.MaxSeed, sd.N)
	}
	return out
}

// wallTime formats nanoseconds of simulated time with three significant
// digits: "850 ns", "1.25 ms", "12.5 s".
func wallTime(ns int64) string {
	v := float64(ns)
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}} {
		if v >= u.scale*(1-5e-4) { // what rounds to 1000 of the unit below
			x := v / u.scale
			dec := 0
			switch {
			case x < 10:
				dec = 2
			case x < 100:
				dec = 1
			}
			s := strconv.FormatFloat(x, 'f', dec, 64)
			if dec > 0 {
				s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
			}
			return s + " " + u.name
		}
	}
	return strconv.FormatInt(ns, 10) + " ns"
}

// simulated writes the simulated-schedules section of root r: the peak
// of each policy beside MHWM_p for the p in ps (nil: every p simulated),
// the notes, and the n largest lines at the ws peak of the largest p.
func simulated(w io.Writer, r *profile.Root, ps []int, n int) {
	v := newSimView(r, ps)
	if v == nil {
		return
	}
	fmt.Fprintf(w, "  %s:\n", simHeader)
	if len(v.rows) == 0 {
		fmt.Fprintf(w, "    none at the p shown; simulated at p = %s\n", joinInts(simulatedPs(r)))
		return
	}
	above := v.abovePolicies()
	tw := newTrimmedTable(w, tabwriter.AlignRight)
	fmt.Fprint(tw, "    p\tMHWM_p\t")
	for _, pol := range v.policies {
		fmt.Fprintf(tw, "%s\t", pol)
	}
	fmt.Fprintln(tw)
	for i := range v.rows {
		row := &v.rows[i]
		mhwm := "–"
		if row.hasMHWM {
			mhwm = Bytes(row.mhwm)
		}
		fmt.Fprintf(tw, "    %d\t%s\t", row.p, mhwm)
		for _, s := range row.runs {
			cell := "–"
			if s != nil {
				cell = simPeak(s)
			}
			switch {
			case row.above(s):
				cell += "*"
			case len(above) > 0:
				cell += " " // the digits stay aligned with the marked ones
			}
			fmt.Fprintf(tw, "%s\t", cell)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if note := seedsNote(v.seeded()); note != "" {
		fmt.Fprintf(w, "  %s\n", note)
	}
	if len(above) > 0 {
		fmt.Fprintf(w, "  * %s\n", aboveNote(above))
	}
	if note := syncNote(r.Simulation); note != "" {
		fmt.Fprintf(w, "  %s\n", note)
	}
	if s := v.linesRun(); s != nil && n > 0 {
		simLinesTable(w, r, s, n)
	}
}

// simLinesTable lists the n largest lines live at run s's peak.
func simLinesTable(w io.Writer, r *profile.Root, s *profile.Simulated, n int) {
	ls := simLines(r, s)
	if len(ls) == 0 {
		return
	}
	fmt.Fprintf(w, "  lines live at the %s peak at p=%d (%s):\n", s.Policy, s.P, simRun(s))
	tw := newTrimmedTable(w, 0)
	fmt.Fprint(tw, "    line\tfunction\tbytes\tshare\tsource\n")
	for _, l := range ls[:min(n, len(ls))] {
		share := "-"
		if s.PeakBytes > 0 {
			share = fmt.Sprintf("%.1f%%", 100*float64(l.Bytes)/float64(s.PeakBytes))
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\n", simPos(l.SimLine), l.fn, Bytes(l.Bytes), share, l.text)
	}
	tw.Flush()
	if more := len(ls) - n; more > 0 {
		fmt.Fprintf(w, "    … %d more lines\n", more)
	}
}

// trimmedTable is a tabwriter whose lines go out without the spaces
// that pad their last cells.
type trimmedTable struct {
	*tabwriter.Writer
	buf strings.Builder
	w   io.Writer
}

func newTrimmedTable(w io.Writer, flags uint) *trimmedTable {
	t := &trimmedTable{w: w}
	t.Writer = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', flags)
	return t
}

// Flush writes the table.
func (t *trimmedTable) Flush() {
	t.Writer.Flush()
	for line := range strings.Lines(t.buf.String()) {
		fmt.Fprintln(t.w, strings.TrimRight(line, " \n"))
	}
	t.buf.Reset()
}

// joinInts formats ns as "1, 2, 4".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
