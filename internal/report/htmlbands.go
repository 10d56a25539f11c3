package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/spgo/spgo/rtlib/profile"
)

// The heap band chart follows Runciman and Wakeling's heap profiles
// (hp2ps): a stacked area of the live heap over time, one band per
// producer, small producers folded into "other", the smoothest bands at
// the bottom so that the jagged ones do not make every band above them
// jagged too.

const (
	// htmlBandMinShare is the share of the total byte-time below which a
	// band is folded into "other".
	htmlBandMinShare = 0.01
	// htmlBandMax is the most bands drawn besides "other" (hp2ps's
	// default -m20 less one for "other").
	htmlBandMax = 19
	// htmlOtherBand names the folded band.
	htmlOtherBand = "other"
)

// htmlBand is one band of the heap chart.
type htmlBand struct {
	// Name is "file:line func" or the function.
	Name   string
	Text   string // a line's source text (line bands only)
	Values []int64
	// ByteTime is the band's integral over the chart's clock; Share its
	// part of the total.
	ByteTime float64
	Share    float64
	// Variation is the sum of the band's absolute steps divided by its
	// mean value: 0 for a constant band.
	Variation float64
	Other     bool
	// Folded is how many series the "other" band sums.
	Folded int
}

// htmlSeries is one producer's live bytes at each sample.
type htmlSeries struct {
	Name, Text string
	Values     []int64
}

// htmlStepWeights returns each sample's weight in the byte-time
// integral. A sample holds the largest state of the interval of the run
// that ends at its time and begins at the previous sample's (the first
// at 0, the root's start), so its weight is that interval's length. When
// the samples span no time, every weight is 1.
func htmlStepWeights(xs []float64) []float64 {
	w := make([]float64, len(xs))
	prev, span := 0.0, 0.0
	for i, x := range xs {
		w[i] = max(0, x-prev)
		span += w[i]
		prev = x
	}
	if !(span > 0) {
		for i := range w {
			w[i] = 1
		}
	}
	return w
}

// htmlVariation returns Σ|v[i]−v[i−1]| divided by the mean of v.
func htmlVariation(v []int64) float64 {
	if len(v) == 0 {
		return 0
	}
	sum, steps := 0.0, 0.0
	for i, x := range v {
		sum += float64(x)
		if i > 0 {
			steps += math.Abs(float64(x - v[i-1]))
		}
	}
	if sum <= 0 {
		return 0
	}
	return steps / (sum / float64(len(v)))
}

// htmlOrderBands folds and orders series for the band chart. weights are
// the samples' weights in the byte-time integral (htmlStepWeights). Series
// with less than minShare of the total byte-time, and those past the
// maxBands largest, are summed into one "other" band. The bands are
// returned bottom first: the smoothest (least variation relative to
// their size) at the bottom, "other" always on top; ties go to the
// larger band, then by name.
func htmlOrderBands(series []htmlSeries, weights []float64, minShare float64, maxBands int) []htmlBand {
	n := len(weights)
	total := 0.0
	bands := make([]htmlBand, 0, len(series))
	for _, s := range series {
		b := htmlBand{Name: s.Name, Text: s.Text, Values: s.Values}
		for i := 0; i < n && i < len(s.Values); i++ {
			b.ByteTime += float64(s.Values[i]) * weights[i]
		}
		if b.ByteTime <= 0 {
			continue
		}
		total += b.ByteTime
		bands = append(bands, b)
	}
	if total <= 0 {
		return nil
	}
	// Largest first to choose the kept ones.
	slices.SortStableFunc(bands, func(x, y htmlBand) int {
		if c := cmp.Compare(y.ByteTime, x.ByteTime); c != 0 {
			return c
		}
		return cmp.Compare(x.Name, y.Name)
	})
	var kept []htmlBand
	other := htmlBand{Name: htmlOtherBand, Values: make([]int64, n), Other: true}
	folded := 0
	for _, b := range bands {
		b.Share = b.ByteTime / total
		if b.Share >= minShare && len(kept) < maxBands {
			kept = append(kept, b)
			continue
		}
		folded++
		other.ByteTime += b.ByteTime
		for i := 0; i < n && i < len(b.Values); i++ {
			other.Values[i] += b.Values[i]
		}
	}
	for i := range kept {
		kept[i].Variation = htmlVariation(kept[i].Values)
	}
	slices.SortStableFunc(kept, func(x, y htmlBand) int {
		if c := cmp.Compare(x.Variation, y.Variation); c != 0 {
			return c
		}
		if c := cmp.Compare(y.ByteTime, x.ByteTime); c != 0 {
			return c
		}
		return cmp.Compare(x.Name, y.Name)
	})
	if folded > 0 {
		other.Share = other.ByteTime / total
		other.Variation = htmlVariation(other.Values)
		other.Folded = folded
		kept = append(kept, other)
	}
	return kept
}

// htmlHeapSeries groups a root's heap samples by line ("file:line func")
// or, with byFunc, by function.
func htmlHeapSeries(r *profile.Root, byFunc bool) []htmlSeries {
	set := newHTMLSeriesSet(len(r.Heap.Samples))
	for si, s := range r.Heap.Samples {
		for _, lb := range s.Lines {
			if lb.Index < 0 || lb.Index >= len(r.Lines) {
				continue
			}
			l := &r.Lines[lb.Index]
			name, text := l.File+":"+strconv.Itoa(l.Line)+" "+l.Func, l.Text
			if byFunc {
				name, text = l.Func, ""
				if name == "" {
					name = "(unknown function)"
				}
			}
			set.add(name, text, si, lb.Bytes)
		}
	}
	return set.out
}

// htmlSeriesSet collects series of n samples by name.
type htmlSeriesSet struct {
	n   int
	idx map[string]int
	out []htmlSeries
}

func newHTMLSeriesSet(n int) *htmlSeriesSet {
	return &htmlSeriesSet{n: n, idx: map[string]int{}}
}

// add adds bytes to sample i of the series name (with text, when new).
func (s *htmlSeriesSet) add(name, text string, i int, bytes int64) {
	k, ok := s.idx[name]
	if !ok {
		k = len(s.out)
		s.idx[name] = k
		s.out = append(s.out, htmlSeries{Name: name, Text: text, Values: make([]int64, s.n)})
	}
	s.out[k].Values[i] += bytes
}
