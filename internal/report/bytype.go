package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"text/tabwriter"

	pprof "github.com/google/pprof/profile"

	"github.com/spgo/spgo/rtlib/profile"
)

// The by-type view (Runciman and Wakeling's construction profile): a
// root's figures grouped by the static type of the values allocated,
// from the lines' Types (docs/profile.md, "By type").

// TypeShare is one type's part of a root's figures.
type TypeShare struct {
	// Type names the type as Go source writes it ("[]byte",
	// "*main.Node") or says whose bytes are of no known type
	// ("(goroutine)", "(uninstrumented)", "(unknown)").
	Type string
	// Bytes is the type's share of MHWM_q; over all types the shares sum
	// to MHWM_q.
	Bytes int64
	// AllocBytes and Allocs are what the run allocated of the type.
	AllocBytes, Allocs int64
	// Lines is how many lines allocated the type.
	Lines int
}

// HasTypes reports whether r's lines are split by type (profiles of
// spgo before the split are not).
func HasTypes(r *profile.Root) bool {
	return slices.ContainsFunc(r.Lines, func(l profile.Line) bool { return len(l.Types) > 0 })
}

// ByType returns r's figures by type: shares of MHWM_q (0 for every
// type when r has no per-line shares for q), largest first, then by
// allocated bytes, then by name. A line without Types counts as
// "(unknown)".
func ByType(r *profile.Root, q int) []TypeShare {
	key := ""
	if a, ok := r.AttributedAt(q); ok {
		key = strconv.Itoa(a)
	}
	idx := map[string]int{}
	var out []TypeShare
	add := func(name string, bytes, allocBytes, allocs int64) {
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, TypeShare{Type: name})
		}
		t := &out[i]
		t.Bytes += bytes
		t.AllocBytes += allocBytes
		t.Allocs += allocs
		t.Lines++
	}
	for i := range r.Lines {
		l := &r.Lines[i]
		if len(l.Types) == 0 {
			add("(unknown)", l.MHWMBytes[key], l.AllocBytes, l.Allocs)
			continue
		}
		for _, t := range l.Types {
			add(t.Type, t.MHWMBytes[key], t.AllocBytes, t.Allocs)
		}
	}
	slices.SortFunc(out, func(a, b TypeShare) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(b.AllocBytes, a.AllocBytes), cmp.Compare(a.Type, b.Type))
	})
	return out
}

// typesTable lists the n largest types' shares of MHWM_q (show -by type).
func typesTable(w io.Writer, r *profile.Root, q, n int) {
	total, _ := r.MHWMAt(q)
	if !sharesAt(w, r, q) {
		return
	}
	if !HasTypes(r) {
		fmt.Fprintln(w, "  no figures by type: the profile was written by an spgo that did not record types")
		return
	}
	ts := ByType(r, q)
	fmt.Fprintf(w, "  types in the worst case at p=%d (MHWM_%d = %s):\n", q, q, Bytes(total))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "    type\tbytes\tshare\tallocated\tlines\n")
	shown := 0
	for _, t := range ts {
		if t.Bytes == 0 && t.AllocBytes == 0 {
			continue
		}
		if shown == n {
			break
		}
		shown++
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%d\n", t.Type, Bytes(t.Bytes), shareOf(t.Bytes, total), allocated(t.AllocBytes, t.Allocs), t.Lines)
	}
	tw.Flush()
	if more := countNonZero(ts) - shown; more > 0 {
		fmt.Fprintf(w, "    … %d more types\n", more)
	}
}

// countNonZero counts the types with a share or allocated bytes.
func countNonZero(ts []TypeShare) int {
	n := 0
	for _, t := range ts {
		if t.Bytes != 0 || t.AllocBytes != 0 {
			n++
		}
	}
	return n
}

// htmlTypeSeries groups a root's heap samples by type.
func htmlTypeSeries(r *profile.Root) []htmlSeries {
	set := newHTMLSeriesSet(len(r.Heap.Samples))
	for si, s := range r.Heap.Samples {
		for _, tb := range s.Types {
			set.add(tb.Type, "", si, tb.Bytes)
		}
	}
	return set.out
}

// htmlTypeRow is one row of the HTML page's table of types.
type htmlTypeRow struct {
	Type, Bytes, Pct, Alloc string
	Width                   string // the bar's width, % of the largest share
}

// htmlTypes is the HTML page's table of types at p = Q.
type htmlTypes struct {
	Q     int
	Total string
	Rows  []htmlTypeRow
	More  int
}

// newHTMLTypes returns the table of r's n largest types at q, nil when
// r has no figures by type for q.
func newHTMLTypes(r *profile.Root, q, n int) *htmlTypes {
	a, ok := r.AttributedAt(q)
	if !ok || !HasTypes(r) {
		return nil
	}
	total, _ := r.MHWMAt(a)
	ts := ByType(r, a)
	ht := &htmlTypes{Q: a, Total: Bytes(total)}
	widest := int64(0)
	for _, t := range ts {
		widest = max(widest, t.Bytes)
	}
	for _, t := range ts {
		if t.Bytes <= 0 {
			continue
		}
		if len(ht.Rows) == n {
			ht.More++
			continue
		}
		ht.Rows = append(ht.Rows, htmlTypeRow{Type: t.Type, Bytes: Bytes(t.Bytes), Pct: htmlPercent(t.Bytes, total),
			Alloc: fmt.Sprintf("%s in %d", Bytes(t.AllocBytes), t.Allocs), Width: htmlPct(t.Bytes, widest)})
	}
	return ht
}

// pprofByType splits line l's sample s into one sample per type of l,
// with the same stack, its values from l.Types (mhwm_<q> for each q of
// qs, alloc_space, alloc_objects) and the label "type" besides s's
// labels; types with no value are left out. A line without types keeps
// its values under the type "(unknown)".
func pprofByType(s *pprof.Sample, r *profile.Root, l *profile.Line, qs []int) []*pprof.Sample {
	label := func(name string) map[string][]string {
		m := maps.Clone(s.Label)
		m["type"] = []string{name}
		return m
	}
	if len(l.Types) == 0 {
		return []*pprof.Sample{{Location: s.Location, Value: s.Value, Label: label("(unknown)")}}
	}
	keys := make([]string, len(qs))
	for i, q := range qs {
		if a, ok := r.AttributedAt(q); ok {
			keys[i] = strconv.Itoa(a)
		}
	}
	var out []*pprof.Sample
	for _, t := range l.Types {
		vs := make([]int64, 0, len(qs)+2)
		for _, k := range keys {
			vs = append(vs, t.MHWMBytes[k])
		}
		vs = append(vs, t.AllocBytes, t.Allocs)
		if !slices.ContainsFunc(vs, func(v int64) bool { return v != 0 }) {
			continue
		}
		out = append(out, &pprof.Sample{Location: s.Location, Value: vs, Label: label(t.Type)})
	}
	return out
}
