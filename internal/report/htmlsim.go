package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
)

// The HTML report's simulated schedules: per root, the table of peaks
// beside MHWM_p and, per simulated p, memory in use over simulated time
// by policy with the lines at the ws peak. The page shows the p of the
// per-line view (the largest simulated p at most that); the script
// switches it with the view's p.

// htmlSimColors are the policies' colours.
var htmlSimColors = map[string]string{"df": "#59a14f", "bf": "#f28e2b", "ws": "#4e79a7", "go": "#b07aa1"}

// htmlSimNames are the policies' names in words.
var htmlSimNames = map[string]string{"df": "depth-first", "bf": "breadth-first", "ws": "work stealing", "go": "Go-like"}

// htmlSim is a root's simulated-schedules card.
type htmlSim struct {
	Head     string
	Graph    string
	Policies []htmlSimPolicy
	Rows     []htmlSimRow
	Notes    []string
	// AboveNote explains the marked cells ("" when none is).
	AboveNote string
	Blocks    []*htmlSimBlock
}

type htmlSimPolicy struct {
	Name, Title string
}

type htmlSimRow struct {
	P     int
	MHWM  string
	Cells []htmlSimCell
}

// htmlSimCell is one policy's peak at one p.
type htmlSimCell struct {
	Peak, Range string
	Above       bool
	Title       string
}

// htmlSimBlock is one simulated p's chart and lines; all but one are
// hidden.
type htmlSimBlock struct {
	P      int
	Hidden bool
	Chart  *htmlSimChart
	// The lines at the ws peak.
	LinesHead string
	Lines     []htmlSimLine
	More      int
}

type htmlSimLine struct {
	Pos, Func, Text string
	Bytes, Pct      string
	Width           string
	Neg             bool
}

// htmlSimChart is memory in use over simulated time at one p, a line
// per policy, with MHWM_p for reference.
type htmlSimChart struct {
	htmlFrame
	P      int
	Series []htmlSimSeries
	// RefY is MHWM_p's line ("" without MHWM figures), its label below
	// it unless that is the x axis.
	RefY, RefLabel, RefDY string
}

// htmlSimSeries is one policy's curve and its peak.
type htmlSimSeries struct {
	Policy, Name, Color string
	D                   string
	PeakX, PeakY        string
	Peak, Title         string
}

// newHTMLSim returns root r's simulated-schedules card, nil when r was
// not simulated; q is the p of the per-line view (0 for none).
func newHTMLSim(r *profile.Root, q, n int) *htmlSim {
	v := newSimView(r, nil)
	if v == nil || len(v.rows) == 0 {
		return nil
	}
	hs := &htmlSim{Head: htmlSentence(simHeaderNote)}
	if s := r.Simulation; s != nil {
		hs.Graph = fmt.Sprintf("Recorded graph: %d strands in %d tasks, %d dependencies (%d not series-parallel); strand durations: %s.",
			s.Strands, s.Tasks, s.Deps, s.SyncDeps, s.Weights)
	}
	for _, pol := range v.policies {
		hs.Policies = append(hs.Policies, htmlSimPolicy{Name: pol, Title: htmlSimNames[pol]})
	}
	for i := range v.rows {
		hs.Rows = append(hs.Rows, newHTMLSimRow(&v.rows[i]))
	}
	if note := seedsNote(v.seeded()); note != "" {
		hs.Notes = append(hs.Notes, htmlSentence(note))
	}
	if note := syncNote(r.Simulation); note != "" {
		hs.Notes = append(hs.Notes, htmlSentence(note))
	}
	if above := v.abovePolicies(); len(above) > 0 {
		hs.AboveNote = htmlSentence(aboveNote(above))
	}
	show := htmlSimDefault(v, q)
	for i := range v.rows {
		b := newHTMLSimBlock(v, &v.rows[i], n)
		b.Hidden = b.P != show
		hs.Blocks = append(hs.Blocks, b)
	}
	return hs
}

// htmlSimDefault returns the simulated p shown first: the largest at
// most q, the smallest when none is, the largest when q is 0.
func htmlSimDefault(v *simView, q int) int {
	show := v.rows[0].p
	for _, row := range v.rows {
		if q <= 0 || row.p <= q {
			show = row.p
		}
	}
	return show
}

// htmlSentence capitalises a note and ends it with a full stop.
func htmlSentence(s string) string {
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func newHTMLSimRow(row *simRow) htmlSimRow {
	hr := htmlSimRow{P: row.p, MHWM: "–"}
	if row.hasMHWM {
		hr.MHWM = Bytes(row.mhwm)
	}
	for _, s := range row.runs {
		if s == nil {
			hr.Cells = append(hr.Cells, htmlSimCell{Peak: "–"})
			continue
		}
		c := htmlSimCell{Peak: Bytes(s.PeakBytes), Above: row.above(s), Title: s.Policy + " at p = " + strconv.Itoa(s.P) + ": peak " + simRun(s)}
		if sd := s.Seeds; sd != nil && sd.N > 1 {
			c.Title += fmt.Sprintf("; over %d seeds min %s, median %s, max %s", sd.N, Bytes(sd.Min), Bytes(sd.Median), Bytes(sd.Max))
			if sd.Min != sd.Max {
				c.Range = bytesRange(sd.Min, sd.Max)
			}
		}
		if c.Above {
			c.Title += fmt.Sprintf("; above MHWM_%d = %s", row.p, Bytes(row.mhwm))
		}
		hr.Cells = append(hr.Cells, c)
	}
	return hr
}

func newHTMLSimBlock(v *simView, row *simRow, n int) *htmlSimBlock {
	b := &htmlSimBlock{P: row.p, Chart: newHTMLSimChart(v, row)}
	k := slices.Index(v.policies, "ws")
	if k < 0 || row.runs[k] == nil {
		return b
	}
	s := row.runs[k]
	ls := simLines(v.r, s)
	if len(ls) == 0 {
		return b
	}
	b.LinesHead = simRun(s)
	if len(ls) > n {
		b.More = len(ls) - n
		ls = ls[:n]
	}
	widest := int64(0)
	for _, l := range ls {
		widest = max(widest, l.Bytes, -l.Bytes)
	}
	for _, l := range ls {
		b.Lines = append(b.Lines, htmlSimLine{Pos: simPos(l.SimLine), Func: l.fn, Text: l.text, Bytes: Bytes(l.Bytes),
			Pct: htmlPercent(l.Bytes, s.PeakBytes), Width: htmlPct(max(l.Bytes, -l.Bytes), widest), Neg: l.Bytes < 0})
	}
	return b
}

// newHTMLSimChart draws the row's runs over simulated time.
func newHTMLSimChart(v *simView, row *simRow) *htmlSimChart {
	c := &htmlSimChart{htmlFrame: newHTMLFrame(720, 300, 78, 24, 18, 46), P: row.p}
	c.XLabel, c.YLabel = "simulated time (measured strand durations)", "memory in use"
	hiB, hiT := int64(0), int64(0)
	if row.hasMHWM {
		hiB = row.mhwm
	}
	for _, s := range row.runs {
		if s == nil {
			continue
		}
		hiB, hiT = max(hiB, s.PeakBytes), max(hiT, s.MakespanWallNS)
		for _, pt := range s.Curve {
			hiB, hiT = max(hiB, pt.Bytes), max(hiT, pt.WallNS)
		}
	}
	top, yt := htmlByteTicks(hiB)
	Y := func(b int64) float64 { return c.B - (c.B-c.T)*float64(b)/float64(top) }
	for _, b := range yt {
		c.YTicks = append(c.YTicks, htmlTick{Pos: htmlNum(Y(b)), Label: Bytes(b)})
	}
	xtop, xstep, xt := htmlNiceTicks(float64(hiT) / 1e9)
	X := func(ns int64) float64 { return c.L + (c.R-c.L)*float64(ns)/1e9/xtop }
	for _, t := range xt {
		c.XTicks = append(c.XTicks, htmlTick{Pos: htmlNum(c.L + (c.R-c.L)*t/xtop), Label: htmlSeconds(t, xstep)})
	}
	for k, s := range row.runs {
		if s == nil {
			continue
		}
		pol := v.policies[k]
		c.Series = append(c.Series, htmlSimSeries{
			Policy: pol, Name: pol + " (" + htmlSimNames[pol] + ")", Color: htmlSimColors[pol],
			D:     htmlSimPath(s, X, Y),
			PeakX: htmlNum(X(s.PeakAtWallNS)), PeakY: htmlNum(Y(s.PeakBytes)),
			Peak: Bytes(s.PeakBytes), Title: pol + " at p = " + strconv.Itoa(s.P) + ": peak " + simRun(s),
		})
	}
	if row.hasMHWM {
		ry := Y(row.mhwm)
		c.RefY = htmlNum(ry)
		c.RefLabel = fmt.Sprintf("MHWM_%d = %s (bound)", row.p, Bytes(row.mhwm))
		c.RefDY = "14"
		if ry > c.B-18 {
			c.RefDY = "-5"
		}
	}
	return c
}

// htmlSimPath is a run's curve as steps: each point's bytes held until
// the next point, the last until the makespan.
func htmlSimPath(s *profile.Simulated, X, Y func(int64) float64) string {
	if len(s.Curve) == 0 {
		return ""
	}
	var d strings.Builder
	for i, pt := range s.Curve {
		x, y := htmlNum(X(pt.WallNS)), htmlNum(Y(pt.Bytes))
		if i == 0 {
			d.WriteString("M" + x + " " + y)
			continue
		}
		d.WriteString("H" + x + "V" + y)
	}
	if end := s.MakespanWallNS; end > s.Curve[len(s.Curve)-1].WallNS {
		d.WriteString("H" + htmlNum(X(end)))
	}
	return d.String()
}
