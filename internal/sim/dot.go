package sim

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spgo/spgo/rtlib/trace"
)

// DOTOptions tune WriteDOT. The zero value is ready to use.
type DOTOptions struct {
	// Title heads the drawing; empty means "root: policy p=P, peak …".
	Title string
	// MaxPenWidth is the width of the edge that carries the most bytes;
	// 0 means 8. An edge that carries nothing is 1 wide.
	MaxPenWidth float64
}

// WriteDOT writes g as a Graphviz digraph drawn by the rules of
// Spoonhower et al., at the high-water step of r (a Result of simulating
// g; a zero Result draws everything grey):
//
//   - chains are coalesced: a maximal path of Seq and Cont deps whose
//     inner links have one dep in and one out becomes one node, labelled
//     with its first and last strand, its strand count, total work, net
//     and peak bytes; its tooltip lists the bytes by site name;
//   - vertical is dependency (rankdir=TB); horizontal is serial order:
//     nodes are declared in strand order and each node's out-edges in the
//     order of their targets' IDs, with ordering=out, so that a spawned
//     child stands left of its continuation;
//   - at the high-water step, nodes with a strand completed or started
//     are black (a started one bold), the others grey; an edge is black
//     when its source strand had completed;
//   - edge width is space: an edge u→v is drawn with a pen width that
//     grows linearly with the bytes its source's task holds when u ends,
//     carried(u) = max(0, Net(u) + Σ carried(x) over u's incoming Cont, Seq
//     and Join deps), i.e. what the task and the children it joined have
//     allocated and not freed. Synchronisation deps (chan, mutex, cond,
//     other) carry nothing into their target, are dashed and labelled
//     with their kind.
func WriteDOT(w io.Writer, g *trace.Graph, r Result, opt DOTOptions) error {
	pr, err := newPrep(g)
	if err != nil {
		return err
	}
	if r.Status != nil && len(r.Status) != pr.n {
		return fmt.Errorf("sim: dot: result has %d strand statuses, graph %d strands", len(r.Status), pr.n)
	}
	maxPen := opt.MaxPenWidth
	if maxPen <= 0 {
		maxPen = 8
	}
	status := func(u int32) Status {
		if r.Status == nil {
			return NotStarted
		}
		return r.Status[u]
	}
	carried := carriedBytes(pr)
	head, chainNext := chains(pr)
	var most int64 // over the sources of drawn edges
	for u, c := range carried {
		if chainNext[u] < 0 && pr.outStart[u+1] > pr.outStart[u] {
			most = max(most, c)
		}
	}

	bw := bufio.NewWriter(w)
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("%s: %s p=%d, peak %s at %s", g.Name, r.Policy, r.P, fmtBytes(r.PeakBytes), time.Duration(r.PeakAt))
	}
	fmt.Fprintf(bw, "digraph %s {\n", dotQuote(g.Name))
	fmt.Fprintf(bw, "\tlabel=%s;\n\tlabelloc=t;\n\trankdir=TB;\n\tordering=out;\n", dotQuote(title))
	fmt.Fprintf(bw, "\tnode [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n")
	fmt.Fprintf(bw, "\tedge [arrowsize=0.6];\n")
	for u := range int32(pr.n) {
		if head[u] != u {
			continue
		}
		var members []int32
		for v := u; v >= 0; v = chainNext[v] {
			members = append(members, v)
		}
		writeNode(bw, g, members, status)
	}
	for u := range int32(pr.n) {
		if chainNext[u] >= 0 {
			continue // inside a chain; the tail draws its out-edges
		}
		for j := pr.outStart[u]; j < pr.outStart[u+1]; j++ {
			v, kind := pr.outTo[j], pr.outKind[j]
			pen := 1.0
			if most > 0 {
				pen += (maxPen - 1) * float64(carried[u]) / float64(most)
			}
			attrs := []string{"penwidth=" + strconv.FormatFloat(pen, 'f', 2, 64)}
			if status(u) != Completed {
				attrs = append(attrs, "color=gray60")
			}
			switch kind {
			case trace.Chan, trace.Mutex, trace.Cond, trace.Other:
				attrs = append(attrs, "style=dashed", "label="+dotQuote(kind.String()), "fontsize=8")
			}
			attrs = append(attrs, "tooltip="+dotQuote(fmt.Sprintf("%s s%d→s%d carries %s", kind, u, v, fmtBytes(carried[u]))))
			fmt.Fprintf(bw, "\tn%d -> n%d [%s];\n", head[u], head[v], strings.Join(attrs, ", "))
		}
	}
	fmt.Fprintf(bw, "}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sim: dot: %w", err)
	}
	return nil
}

// writeNode writes one node for the chain of strands members.
func writeNode(w io.Writer, g *trace.Graph, members []int32, status func(int32) Status) {
	first, last := members[0], members[len(members)-1]
	var work, net, peak, run int64
	by := map[int32][2]int64{} // site → net, largest at-peak share
	started, bold := false, false
	for _, v := range members {
		s := &g.Strands[v]
		work += s.Work
		peak = max(peak, run+s.Peak)
		run += s.Net
		net += s.Net
		for _, sb := range s.Sites {
			x := by[sb.Site]
			by[sb.Site] = [2]int64{x[0] + sb.Net, max(x[1], sb.AtPeak)}
		}
		switch status(v) {
		case Started:
			started, bold = true, true
		case Completed:
			started = true
		}
	}
	label := fmt.Sprintf("s%d", first)
	if len(members) > 1 {
		label = fmt.Sprintf("s%d–s%d (%d strands)", first, last, len(members))
	}
	label += fmt.Sprintf("\nwork %s\nnet %s, peak %s", time.Duration(work), fmtSigned(net), fmtBytes(peak))
	sites := make([]int32, 0, len(by))
	for site := range by {
		sites = append(sites, site)
	}
	slices.Sort(sites)
	tip := fmt.Sprintf("task %d", g.Strands[first].Task)
	for _, site := range sites {
		name, ok := g.Sites[site]
		if !ok {
			name = fmt.Sprintf("site %d", site)
		}
		tip += fmt.Sprintf("\n%s: net %s, at peak %s", name, fmtSigned(by[site][0]), fmtBytes(by[site][1]))
	}
	attrs := []string{"label=" + dotQuote(label), "tooltip=" + dotQuote(tip)}
	switch {
	case bold:
		attrs = append(attrs, "style=\"rounded,bold\"")
	case !started:
		attrs = append(attrs, "color=gray60", "fontcolor=gray60")
	}
	fmt.Fprintf(w, "\tn%d [%s];\n", first, strings.Join(attrs, ", "))
}

// chains coalesces strands linked by a Seq or Cont dep whose source has
// one out-dep and whose target has one in-dep. It returns each strand's
// chain head and its successor in the chain (-1 at the tail).
func chains(pr *prep) (head, next []int32) {
	n := pr.n
	head, next = make([]int32, n), make([]int32, n)
	prev := make([]int32, n)
	for i := range n {
		next[i], prev[i] = -1, -1
	}
	for u := range int32(n) {
		j := pr.outStart[u]
		if pr.outStart[u+1]-j != 1 {
			continue
		}
		if v, k := pr.outTo[j], pr.outKind[j]; (k == trace.Seq || k == trace.Cont) && pr.indeg[v] == 1 {
			next[u], prev[v] = v, u
		}
	}
	for _, u := range pr.dfOrder { // a topological order: a chain's head comes first
		head[u] = u
		if p := prev[u]; p >= 0 {
			head[u] = head[p]
		}
	}
	return head, next
}

// carriedBytes returns, for every strand u, max(0, Net(u) + Σ carried over
// u's incoming Cont, Seq and Join deps).
func carriedBytes(pr *prep) []int64 {
	in := make([]int64, pr.n)
	out := make([]int64, pr.n)
	for _, u := range pr.dfOrder {
		out[u] = max(0, in[u]+pr.g.Strands[u].Net)
		for j := pr.outStart[u]; j < pr.outStart[u+1]; j++ {
			switch pr.outKind[j] {
			case trace.Cont, trace.Seq, trace.Join:
				in[pr.outTo[j]] += out[u]
			}
		}
	}
	return out
}

// dotQuote quotes s as a DOT string; a newline becomes \n (a centred line
// break in labels, a line break in SVG tooltips).
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fmtBytes formats n in B, KiB, MiB or GiB.
func fmtBytes(n int64) string {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	s := strconv.FormatUint(u, 10) + " B"
	for i, unit := range []string{"KiB", "MiB", "GiB", "TiB"} {
		d := uint64(1) << (10 * (i + 1))
		if u < d {
			break
		}
		s = strconv.FormatFloat(float64(u)/float64(d), 'f', 1, 64) + " " + unit
	}
	if neg {
		return "-" + s
	}
	return s
}

// fmtSigned is fmtBytes with a + on positive values.
func fmtSigned(n int64) string {
	if n > 0 {
		return "+" + fmtBytes(n)
	}
	return fmtBytes(n)
}
