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
	// (and PMax itself).
	Ps []int
	// Lines is how many lines to list per root (the largest shares of
	// the worst case at the largest p); 0 lists none.
	Lines int
}

// DefaultPs returns 1, 2, 4, … ≤ pmax, and pmax.
func DefaultPs(pmax int) []int {
	var ps []int
	for p := 1; p <= pmax; p *= 2 {
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
	ew := &errWriter{w: w}
	if p.Partial {
		fmt.Fprintln(ew, "spgo: partial profile: the program did not end normally; figures cover what ran")
	}
	for i := range p.Roots {
		root(ew, p, &p.Roots[i], o)
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

func root(w io.Writer, p *profile.Profile, r *profile.Root, o Options) {
	state := "exact"
	if !r.Exact {
		state = "not exact (an upper bound)"
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
		tw.Flush()
	}
	fmt.Fprintf(w, "  serial peak %s; work %d, span %d, %d strands, %d spawns; %d censuses (error ≤ %s)\n",
		Bytes(r.SerialPeak), r.Work, r.Span, r.Strands, r.Spawns, r.Censuses, Bytes(r.CensusError))
	if o.Lines > 0 && len(r.MHWM) > 0 {
		lines(w, p.PMax, r, o.Lines)
	}
}

// lines lists the largest shares of MHWM_pmax.
func lines(w io.Writer, pmax int, r *profile.Root, n int) {
	key := strconv.Itoa(pmax)
	total, _ := r.MHWMAt(pmax)
	ls := make([]profile.Line, 0, len(r.Lines))
	for _, l := range r.Lines {
		if l.MHWMBytes[key] > 0 {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return
	}
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].MHWMBytes[key] > ls[j].MHWMBytes[key] })
	fmt.Fprintf(w, "  lines in the worst case at p=%d:\n", pmax)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	more := len(ls) - n
	for i, l := range ls {
		if i == n {
			break
		}
		share := ""
		if total > 0 {
			share = fmt.Sprintf("%.1f%%", 100*float64(l.MHWMBytes[key])/float64(total))
		}
		how := fmt.Sprintf("in %d", l.Allocs)
		if l.Allocs == 0 {
			how = "by uninstrumented code"
		}
		fmt.Fprintf(tw, "    %s:%d\t%s\t%s\t%s\tallocated %s %s\n", l.File, l.Line, l.Func, Bytes(l.MHWMBytes[key]), share, Bytes(l.AllocBytes), how)
	}
	tw.Flush()
	if more > 0 {
		fmt.Fprintf(w, "    … %d more lines\n", more)
	}
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
