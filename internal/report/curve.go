package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/spgo/spgo/rtlib/profile"
)

// Slope describes how a root's MHWM_p grows with p: from p = From, where
// it starts, to p = To, the first p at which it reaches its value at
// pmax.
type Slope struct {
	From, To           int
	FromBytes, ToBytes int64
	PMax               int
	// PerProc is the average growth per added processor over From..To.
	PerProc float64
	// Linear is true when every MHWM_p of the range lies within a tenth
	// of the range's growth of the straight line.
	Linear bool
}

// SlopeOf returns the growth of r's MHWM curve, and false if r has no
// MHWM figures (a threshold-mode run).
func SlopeOf(r *profile.Root) (Slope, bool) {
	if len(r.MHWM) == 0 {
		return Slope{}, false
	}
	pmax := len(r.MHWM)
	top := r.MHWM[pmax-1].Bytes
	to := 1
	for r.MHWM[to-1].Bytes != top {
		to++
	}
	s := Slope{From: 1, To: to, FromBytes: r.MHWM[0].Bytes, ToBytes: top, PMax: pmax, Linear: true}
	if to > 1 {
		growth := float64(s.ToBytes - s.FromBytes)
		s.PerProc = growth / float64(to-1)
		for p := 1; p <= to; p++ {
			line := float64(s.FromBytes) + s.PerProc*float64(p-1)
			if math.Abs(float64(r.MHWM[p-1].Bytes)-line) > growth/10 {
				s.Linear = false
			}
		}
	}
	return s, true
}

// String states the slope the way Cilkmem does.
func (s Slope) String() string {
	if s.To == s.From {
		return fmt.Sprintf("does not grow with p: MHWM_p = %s for every p ≤ %d", Bytes(s.ToBytes), s.PMax)
	}
	rest := ""
	if s.To < s.PMax {
		rest = fmt.Sprintf(", then stays at %s up to p = %d", Bytes(s.ToBytes), s.PMax)
	}
	if s.Linear {
		return fmt.Sprintf("grows by ≈ %s per processor from p = %d to %d (%s → %s)%s",
			bytesFloat(s.PerProc), s.From, s.To, Bytes(s.FromBytes), Bytes(s.ToBytes), rest)
	}
	return fmt.Sprintf("grows from %s at p = %d to %s at p = %d, ≈ %s per processor on average but not linearly (see the table)%s",
		Bytes(s.FromBytes), s.From, Bytes(s.ToBytes), s.To, bytesFloat(s.PerProc), rest)
}

// bytesFloat formats a fractional byte count with one decimal always.
func bytesFloat(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	u := 0
	for math.Abs(v) >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u]
}

// CurveOptions controls Curve.
type CurveOptions struct {
	Root  string // one root by name; "" for all
	Lines int    // lines listed per root for the growth (0: none)
}

// maxCurveRows bounds the table: beyond it only powers of two are shown.
const maxCurveRows = 40

// Curve writes MHWM_p against p for each root: the slope, a table of
// the points where the curve changes, and the lines that make up the
// growth (the differential report from p = From to To).
func Curve(w io.Writer, p *profile.Profile, o CurveOptions) error {
	roots, err := SelectRoots(p, o.Root)
	if err != nil {
		return err
	}
	ew := &errWriter{w: w}
	for _, r := range roots {
		fmt.Fprintf(ew, "spgo: %s: %s\n", r.Name, exactness(r))
		s, ok := SlopeOf(r)
		if !ok {
			fmt.Fprintln(ew, "  no MHWM curve: a threshold-mode run answers only whether MHWM_pmax reaches the threshold")
			continue
		}
		fmt.Fprintf(ew, "  MHWM_p %s\n", s)
		fmt.Fprintf(ew, "  serial peak (child-first run) %s\n", Bytes(r.SerialPeak))
		rows := curveRows(r)
		tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "  p\tMHWM_p\tgrowth\tper processor\t\n")
		prev := 0
		for _, q := range rows {
			v, _ := r.MHWMAt(q)
			if prev == 0 {
				fmt.Fprintf(tw, "  %d\t%s\t\t\t\n", q, Bytes(v))
			} else {
				pv, _ := r.MHWMAt(prev)
				per := "-"
				if v != pv {
					per = bytesFloat(float64(v-pv) / float64(q-prev))
				}
				fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t\n", q, Bytes(v), signed(v-pv), per)
			}
			prev = q
		}
		tw.Flush()
		if o.Lines > 0 && s.To > s.From {
			d, err := DiffPs(&profile.Profile{PMax: p.PMax, Roots: []profile.Root{*r}}, s.From, s.To)
			if err != nil {
				return err
			}
			rd := &d.Roots[0]
			fmt.Fprintf(ew, "  lines that make up the growth from p = %d to %d (%s):\n", s.From, s.To, signed(rd.Delta()))
			lineDeltas(ew, "    ", rd, o.Lines)
		}
	}
	return ew.err
}

// curveRows returns the p shown in the table: the powers of two, every p
// where the curve changes slope, and pmax; only powers of two (and the ends of
// the growth) if that would be too many.
func curveRows(r *profile.Root) []int {
	pmax := len(r.MHWM)
	at := func(q int) int64 { return r.MHWM[q-1].Bytes }
	var rows []int
	for q := 1; q <= pmax; q++ {
		// Keep the powers of two, and q when the step into it differs
		// from the step out of it.
		if q&(q-1) == 0 || q == pmax || at(q)-at(q-1) != at(q+1)-at(q) {
			rows = append(rows, q)
		}
	}
	if len(rows) <= maxCurveRows {
		return rows
	}
	s, _ := SlopeOf(r)
	rows = rows[:0]
	for q := 1; q <= pmax; q++ {
		if q&(q-1) == 0 || q == pmax || q == s.To {
			rows = append(rows, q)
		}
	}
	return rows
}
