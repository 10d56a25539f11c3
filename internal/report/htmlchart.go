package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
)

// SVG geometry of the HTML report's charts. Everything is computed here
// and the template only places it, so that user text is escaped by
// html/template and numbers are formatted one way.

// htmlBandColors are the heap bands' colours, bottom band first; the
// dark and light shades of a hue are far apart so that neighbouring
// bands differ.
var htmlBandColors = []string{
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#edc948", "#76b7b2", "#ff9da7", "#9c755f",
	"#a0cbe8", "#ffbe7d", "#8cd17d", "#d37295", "#d4a6c8", "#b6992d", "#86bcb6", "#fabfd2", "#d7b5a6", "#499894",
}

const htmlOtherColor = "#c9c9c9"

// htmlTick is an axis tick at a position in pixels.
type htmlTick struct {
	Pos   string
	Label string
}

// htmlPoint is a chart point with its tooltip.
type htmlPoint struct {
	X, Y  string
	Title string
}

// htmlFrame is a chart's size and plot area.
type htmlFrame struct {
	W, H           int
	L, R, T, B     float64 // the plot area's edges in pixels
	Left, Right    string
	Top, Bottom    string
	MidX, MidY     string
	XTicks, YTicks []htmlTick
	XLabel, YLabel string
	// Label positions: y-tick labels' x, x-tick labels' y, the axis
	// titles' positions.
	YTickX, XTickY string
	XTitleY        string
	YTitleX        string
	TickEnd        string // the x ticks' lower end
}

func newHTMLFrame(w, h int, l, r, t, b float64) htmlFrame {
	f := htmlFrame{W: w, H: h, L: l, R: float64(w) - r, T: t, B: float64(h) - b}
	f.Left, f.Right, f.Top, f.Bottom = htmlNum(f.L), htmlNum(f.R), htmlNum(f.T), htmlNum(f.B)
	f.MidX, f.MidY = htmlNum((f.L+f.R)/2), htmlNum((f.T+f.B)/2)
	f.YTickX, f.XTickY = htmlNum(f.L-8), htmlNum(f.B+17)
	f.XTitleY, f.YTitleX = htmlNum(float64(h)-6), htmlNum(14)
	f.TickEnd = htmlNum(f.B + 5)
	return f
}

// htmlNum formats a coordinate with at most one decimal.
func htmlNum(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	s := strconv.FormatFloat(math.Round(f*10)/10, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

// htmlByteTicks returns the ticks of a byte axis from 0 to at least max:
// a power-of-two step giving two to five intervals, so that the labels
// are round in binary units.
func htmlByteTicks(hi int64) (top int64, ticks []int64) {
	hi = min(max(hi, 1), 1<<62) // validated profiles stay below 2^62
	step := int64(1)
	for step < (hi+4)/5 && step < 1<<60 { // step·5 < hi without overflow
		step *= 2
	}
	top = (hi + step - 1) / step * step
	for v := int64(0); v <= top && v >= 0; v += step {
		ticks = append(ticks, v)
	}
	return top, ticks
}

// htmlNiceTicks returns the ticks of an axis from 0 to at least max with
// a 1-2-5 step giving about five intervals.
func htmlNiceTicks(hi float64) (top, step float64, ticks []float64) {
	if !(hi > 0) {
		hi = 1
	}
	raw := hi / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	n := math.Ceil(hi/step - 1e-9)
	top = n * step
	for i := 0.0; i <= n; i++ {
		ticks = append(ticks, i*step)
	}
	return top, step, ticks
}

// htmlSeconds formats a time on an axis of the given step.
func htmlSeconds(v, step float64) string {
	unit, scale := "s", 1.0
	switch {
	case step < 1e-3:
		unit, scale = "µs", 1e6
	case step < 1:
		unit, scale = "ms", 1e3
	}
	x := v * scale
	s := step * scale
	dec := 0
	for dec < 3 && math.Abs(s-math.Round(s)) > 1e-6 {
		s *= 10
		dec++
	}
	return strconv.FormatFloat(x, 'f', dec, 64) + " " + unit
}

// htmlMHWMChart is the chart of MHWM_p against p.
type htmlMHWMChart struct {
	htmlFrame
	Path   string
	Points []htmlPoint
	// Serial is the serial peak's reference line; its label goes below
	// it (the curve never is, MHWM_1 ≥ the serial peak) unless that is
	// the x axis.
	SerialY, SerialLabel, SerialDY string
}

// htmlLog2X maps p ∈ [1, pmax] to the x axis on a log₂ scale.
func htmlLog2X(f *htmlFrame, p, pmax int) float64 {
	if pmax <= 1 {
		return (f.L + f.R) / 2
	}
	return f.L + (f.R-f.L)*math.Log2(float64(p))/math.Log2(float64(pmax))
}

func newHTMLMHWMChart(r *profile.Root) *htmlMHWMChart {
	pmax := len(r.MHWM)
	if pmax == 0 {
		return nil
	}
	c := &htmlMHWMChart{htmlFrame: newHTMLFrame(720, 330, 78, 24, 18, 46)}
	c.XLabel, c.YLabel = "processors p (log scale)", "worst-case memory"
	hi := r.SerialPeak
	for _, pt := range r.MHWM {
		hi = max(hi, pt.Bytes)
	}
	top, yt := htmlByteTicks(hi)
	y := func(v int64) float64 { return c.B - (c.B-c.T)*float64(v)/float64(top) }
	for _, v := range yt {
		c.YTicks = append(c.YTicks, htmlTick{Pos: htmlNum(y(v)), Label: Bytes(v)})
	}
	for _, p := range DefaultPs(pmax) {
		c.XTicks = append(c.XTicks, htmlTick{Pos: htmlNum(htmlLog2X(&c.htmlFrame, p, pmax)), Label: strconv.Itoa(p)})
	}
	// Every p up to 128; beyond that the listed ones and the powers of
	// two (the curve is drawn through them).
	show := func(p int) bool { return true }
	if pmax > 128 {
		keep := map[int]bool{}
		for _, p := range DefaultPs(pmax) {
			keep[p] = true
		}
		for _, p := range r.Attributed {
			keep[p] = true
		}
		show = func(p int) bool { return keep[p] }
	}
	var d strings.Builder
	for i, pt := range r.MHWM {
		p := i + 1
		if !show(p) {
			continue
		}
		x, yy := htmlNum(htmlLog2X(&c.htmlFrame, p, pmax)), htmlNum(y(pt.Bytes))
		if d.Len() == 0 {
			d.WriteString("M")
		} else {
			d.WriteString(" L")
		}
		d.WriteString(x + " " + yy)
		title := fmt.Sprintf("p = %d: MHWM %s", p, Bytes(pt.Bytes))
		if r.SerialPeak > 0 {
			title += fmt.Sprintf(" (%.2f× the serial peak)", float64(pt.Bytes)/float64(r.SerialPeak))
		}
		c.Points = append(c.Points, htmlPoint{X: x, Y: yy, Title: title})
	}
	c.Path = d.String()
	if r.SerialPeak > 0 {
		sy := y(r.SerialPeak)
		c.SerialY = htmlNum(sy)
		c.SerialLabel = "serial peak " + Bytes(r.SerialPeak)
		c.SerialDY = "14"
		if sy > c.B-18 {
			c.SerialDY = "-5"
		}
	}
	return c
}

// htmlBandChart is the heap-over-time band chart of a root's serial run.
type htmlBandChart struct {
	htmlFrame
	Bands []htmlBandView // bottom first
	// Legend is the bands top first, as they are stacked.
	Legend  []htmlBandView
	Samples int
}

// htmlBandView is one drawn band.
type htmlBandView struct {
	Name, Text string
	Color      string
	D          string
	Share      string
	Other      bool
}

func newHTMLBandChart(r *profile.Root, byFunc bool) *htmlBandChart {
	if r.Heap == nil || len(r.Heap.Samples) == 0 {
		return nil
	}
	what := "lines"
	if byFunc {
		what = "functions"
	}
	return newHTMLBandChartOf(r, htmlHeapSeries(r, byFunc), what)
}

// newHTMLBandChartOf draws the band chart of series, one value per heap
// sample of r each; what names the series in the plural ("lines").
func newHTMLBandChartOf(r *profile.Root, series []htmlSeries, what string) *htmlBandChart {
	h := r.Heap
	if h == nil || len(h.Samples) == 0 {
		return nil
	}
	n := len(h.Samples)
	xs := make([]float64, n)
	wall := true
	for i, s := range h.Samples {
		xs[i] = s.WallSeconds
	}
	if !(xs[n-1] > 0) {
		wall = false
		for i, s := range h.Samples {
			xs[i] = float64(max(s.Strand, int64(i+1)))
		}
	}
	for i := 1; i < n; i++ {
		xs[i] = math.Max(xs[i], xs[i-1]) // never backwards
	}
	c := &htmlBandChart{htmlFrame: newHTMLFrame(720, 320, 78, 20, 14, 46), Samples: n}
	if wall {
		c.XLabel = "wall-clock time since the root began"
	} else {
		c.XLabel = "strands run (the serial run's clock)"
	}
	c.YLabel = "live heap"
	bands := htmlOrderBands(series, htmlStepWeights(xs), htmlBandMinShare, htmlBandMax)
	if len(bands) == 0 {
		return nil
	}

	// x from 0, the root's start, to the last sample; the ticks at a
	// round step within it.
	xmax := xs[n-1]
	_, xstep, xt := htmlNiceTicks(xmax)
	if !wall && xstep < 1 {
		xstep, xt = 1, nil
		for v := 0.0; v <= xmax; v++ {
			xt = append(xt, v)
		}
	}
	X := func(v float64) float64 { return c.L + (c.R-c.L)*v/xmax }
	for _, v := range xt {
		if v > xmax*(1+1e-9) {
			break
		}
		label := strconv.FormatFloat(v, 'f', -1, 64)
		if wall {
			label = htmlSeconds(v, xstep)
		}
		c.XTicks = append(c.XTicks, htmlTick{Pos: htmlNum(X(v)), Label: label})
	}
	stack := make([]int64, n)
	for _, b := range bands {
		for i := range n {
			stack[i] += b.Values[i]
		}
	}
	hi := int64(0)
	for _, v := range stack {
		hi = max(hi, v)
	}
	top, yt := htmlByteTicks(hi)
	Y := func(v int64) float64 { return c.B - (c.B-c.T)*float64(v)/float64(top) }
	for _, v := range yt {
		c.YTicks = append(c.YTicks, htmlTick{Pos: htmlNum(Y(v)), Label: Bytes(v)})
	}
	// Colours go by size, so that the largest bands get the first ones
	// whatever their place in the stack.
	colors := map[int]string{}
	bySize := make([]int, len(bands))
	for i := range bySize {
		bySize[i] = i
	}
	slices.SortStableFunc(bySize, func(i, j int) int { return cmp.Compare(bands[j].ByteTime, bands[i].ByteTime) })
	k := 0
	for _, i := range bySize {
		if bands[i].Other {
			colors[i] = htmlOtherColor
			continue
		}
		colors[i] = htmlBandColors[k%len(htmlBandColors)]
		k++
	}
	clear(stack)
	for bi, b := range bands {
		v := htmlBandView{Name: b.Name, Text: b.Text, Other: b.Other, Color: colors[bi],
			Share: strconv.FormatFloat(100*b.Share, 'f', 1, 64) + "%"}
		if b.Other {
			v.Name = fmt.Sprintf("%s (%d %s)", b.Name, b.Folded, what)
			if b.Folded == 1 {
				v.Name = fmt.Sprintf("%s (1 %s)", b.Name, strings.TrimSuffix(what, "s"))
			}
		}
		lower := slices.Clone(stack)
		for i := range n {
			stack[i] += b.Values[i]
		}
		// The band's outline: its top edge left to right, then the one
		// below it right to left; sample i spans [xs[i-1], xs[i]].
		var p htmlPathBuilder
		prev := 0.0
		for i := range n {
			y := Y(stack[i])
			p.add(X(prev), y)
			p.add(X(xs[i]), y)
			prev = xs[i]
		}
		for i := n - 1; i >= 0; i-- {
			y := Y(lower[i])
			p.add(X(xs[i]), y)
			from := 0.0
			if i > 0 {
				from = xs[i-1]
			}
			p.add(X(from), y)
		}
		v.D = p.close()
		c.Bands = append(c.Bands, v)
	}
	for i := len(c.Bands) - 1; i >= 0; i-- {
		c.Legend = append(c.Legend, c.Bands[i])
	}
	return c
}

// htmlPathBuilder writes an SVG path of a polygon with horizontal and
// vertical edges, leaving out repeated points and the middle points of
// straight runs.
type htmlPathBuilder struct {
	pts [][2]string
}

func (b *htmlPathBuilder) add(x, y float64) {
	pt := [2]string{htmlNum(x), htmlNum(y)}
	n := len(b.pts)
	if n > 0 && b.pts[n-1] == pt {
		return
	}
	if n > 1 {
		p, q := b.pts[n-2], b.pts[n-1]
		if (p[0] == q[0] && q[0] == pt[0]) || (p[1] == q[1] && q[1] == pt[1]) {
			b.pts[n-1] = pt
			return
		}
	}
	b.pts = append(b.pts, pt)
}

func (b *htmlPathBuilder) close() string {
	var d strings.Builder
	for i, pt := range b.pts {
		if i == 0 {
			d.WriteString("M")
		} else {
			d.WriteString("L")
		}
		d.WriteString(pt[0] + " " + pt[1])
	}
	d.WriteString("Z")
	return d.String()
}

// htmlSplitView is a stacked bar's segments in per cent of its width.
type htmlSplitView struct {
	Running, Completed, Suspended string
}

func htmlPct(part, whole int64) string {
	if whole <= 0 || part <= 0 {
		return "0"
	}
	return strconv.FormatFloat(math.Min(100, 100*float64(part)/float64(whole)), 'f', 2, 64)
}
