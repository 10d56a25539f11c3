package mhwm

import "slices"

// HeapPoint is the live heap of the serial run at one moment, by site.
type HeapPoint struct {
	// Strand is the serial number of the strand running at the moment.
	Strand int64
	// Time is Config.Clock at the end of that strand (0 without a clock).
	Time int64
	// Bytes is the live heap in the model: the sum of Sites.
	Bytes int64
	// Sites holds the live bytes per site, in site order, without zeros.
	Sites []SiteBytes
}

// SerialHeap returns the live heap of the child-first serial run over
// time, for a heap profile in the style of Runciman and Wakeling, in at
// most maxPoints points (maxPoints ≥ 2). The run is cut into intervals of
// equal strand counts; each point is the largest state of its interval,
// so the serial peak is one of the points. byteTime is the integral of
// the live heap over Config.Clock (bytes × clock units, the clock's 0
// being the root's start), taken over every strand, not only the points,
// with the heap taken as linear from one strand's end to the next (what
// a strand allocates and frees within itself is not seen). It needs a
// run with Config.Attribution whose trace was kept (see TraceDropped):
// ok is false otherwise.
func (r *Result) SerialHeap(maxPoints int) (points []HeapPoint, byteTime float64, ok bool) {
	t := r.trace
	if t == nil || len(t.strands) == 0 {
		return nil, 0, t != nil
	}
	maxPoints = max(maxPoints, 2)
	last := t.strands[len(t.strands)-1].serial
	width := max(1, (last+int64(maxPoints)-1)/int64(maxPoints))
	bucket := func(serial int64) int64 { return (serial - 1) / width }

	// Pass 1: the totals. A strand offers two states: its peak (live
	// before it plus m) and its end (plus s). Pick each interval's largest.
	type choice struct {
		idx   int  // strand index in the trace
		atEnd bool // the end state rather than the peak
		bytes int64
	}
	var picks []choice
	live, prevAt := int64(0), int64(0)
	for i, rec := range t.strands {
		byteTime += (float64(live) + float64(rec.s)/2) * float64(rec.at-prevAt)
		prevAt = rec.at
		b := bucket(rec.serial)
		offer := func(c choice) {
			n := len(picks)
			if n == 0 || bucket(t.strands[picks[n-1].idx].serial) != b {
				picks = append(picks, c)
			} else if c.bytes > picks[n-1].bytes {
				picks[n-1] = c
			}
		}
		offer(choice{i, false, live + rec.m})
		live += rec.s
		offer(choice{i, true, live})
	}

	// Pass 2: the site vectors at the chosen states.
	sites := map[Site]int64{}
	snapshot := func(extra []SiteBytes) []SiteBytes {
		var out []SiteBytes
		for s, n := range sites {
			out = append(out, SiteBytes{s, n})
		}
		out = append(out, extra...)
		slices.SortFunc(out, func(a, b SiteBytes) int { return int(a.Site) - int(b.Site) })
		// Merge equal sites and drop zeros.
		w := 0
		for i := 0; i < len(out); {
			s, n := out[i].Site, int64(0)
			for ; i < len(out) && out[i].Site == s; i++ {
				n += out[i].Bytes
			}
			if n != 0 {
				out[w] = SiteBytes{s, n}
				w++
			}
		}
		return out[:w]
	}
	next := 0
	for i, rec := range t.strands {
		for next < len(picks) && picks[next].idx == i && !picks[next].atEnd {
			points = append(points, HeapPoint{Strand: rec.serial, Time: rec.at, Bytes: picks[next].bytes, Sites: snapshot(t.sites[rec.tot1:rec.pk1])})
			next++
		}
		for _, sb := range t.sites[rec.tot0:rec.tot1] {
			if sites[sb.Site] += sb.Bytes; sites[sb.Site] == 0 {
				delete(sites, sb.Site)
			}
		}
		for next < len(picks) && picks[next].idx == i {
			points = append(points, HeapPoint{Strand: rec.serial, Time: rec.at, Bytes: picks[next].bytes, Sites: snapshot(nil)})
			next++
		}
	}
	return points, byteTime, true
}
