package report

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spgo/spgo/rtlib/profile"
)

// Tests writes the per-test table of one package's test binary: a row
// per root (test, benchmark, example) with MHWM_p for the chosen p's and
// whether the figures are exact, then the reasons of the inexact ones.
func Tests(w io.Writer, pkg string, p *profile.Profile, o Options) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "spgo: %s", pkg)
	if p.Partial {
		fmt.Fprint(ew, " (partial: the test binary did not end normally)")
	}
	fmt.Fprintln(ew)
	ps := o.ps(p.PMax)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "  root\t")
	for _, q := range ps {
		fmt.Fprintf(tw, "MHWM_%d\t", q)
	}
	fmt.Fprint(tw, "serial\texact\t\n")
	for i := range p.Roots {
		r := &p.Roots[i]
		fmt.Fprintf(tw, "  %s\t", r.Name)
		for _, q := range ps {
			if v, ok := r.MHWMAt(q); ok {
				fmt.Fprintf(tw, "%s\t", Bytes(v))
			} else {
				fmt.Fprint(tw, "-\t")
			}
		}
		exact := "yes"
		switch {
		case r.SelfCheckFailed:
			exact = "no (self-check)"
		case r.Unbounded:
			exact = "no (no bound)"
		case !r.Exact:
			exact = "no"
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", Bytes(r.SerialPeak), exact)
	}
	tw.Flush()
	for i := range p.Roots {
		r := &p.Roots[i]
		for _, why := range r.Reasons {
			fmt.Fprintf(ew, "  %s: %s\n", r.Name, why)
		}
	}
	return ew.err
}
