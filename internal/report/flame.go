package report

import (
	_ "embed"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
)

//go:embed flame.tmpl
var flameTemplateText string

//go:embed flame.css
var flameCSS string

//go:embed flame.js
var flameJS string

// htmlFlame is a root's flame graph of the worst case: one icicle per
// attributed q, the callers at the top and the allocating lines at the
// bottom of each stack, widths the paths' shares of MHWM_q.
type htmlFlame struct {
	Blocks []*htmlFlameBlock
}

// htmlFlameBlock is the icicle of one q.
type htmlFlameBlock struct {
	Q      int
	Hidden bool
	Total  string // the sum of the positive shares drawn
	Left   string // what was left out, "" if nothing
	W, H   int
	Nodes  []htmlFlameNode
}

// htmlFlameNode is one box: a function of a stack, or the allocating line.
type htmlFlameNode struct {
	X, Y, W, H float64
	Name       string
	Label      string // Name, cut to fit ("" when too narrow)
	Title      string
	Color      string
	Leaf       bool
}

// Layout of the icicles, in SVG units.
const (
	flameWidth  = 1200
	flameRow    = 20
	flameMinW   = 0.5 // narrower boxes are not drawn
	flameCharW  = 7.2 // the width of a label's character, about
	flameMaxDep = 64
)

// flameColors are the boxes of calling functions, by a hash of the
// name; flameLeaf is the allocating lines'.
var flameColors = []string{"#f2a65a", "#eec170", "#f7d08a", "#e9965b", "#f4b860", "#ddb074"}

const flameLeaf = "#c8553d"

// flameNode is a node of the tree of paths.
type flameNode struct {
	name string
	leaf bool
	v    int64
	kids []*flameNode
}

func (n *flameNode) child(name string, leaf bool) *flameNode {
	for _, k := range n.kids {
		if k.name == name && k.leaf == leaf {
			return k
		}
	}
	k := &flameNode{name: name, leaf: leaf}
	n.kids = append(n.kids, k)
	return k
}

// newHTMLFlame returns r's flame graphs for the processor counts qs (q
// shown first), nil when r has no call paths (a profile of an older
// spgo) or no shares.
func newHTMLFlame(r *profile.Root, qs []htmlQ, q int) *htmlFlame {
	if len(r.Paths) == 0 || len(qs) == 0 {
		return nil
	}
	f := &htmlFlame{}
	for _, hq := range qs {
		f.Blocks = append(f.Blocks, newFlameBlock(r, hq.Q, hq.Q != q))
	}
	return f
}

// newFlameBlock lays out the icicle of r's paths at q.
func newFlameBlock(r *profile.Root, q int, hidden bool) *htmlFlameBlock {
	top := &flameNode{name: "root " + r.Name}
	var neg int64
	for i := range r.Paths {
		pa := &r.Paths[i]
		v, _ := r.PathMHWM(pa, q)
		if v <= 0 {
			neg -= v
			continue
		}
		top.v += v
		n := top
		for j := len(pa.Callers) - 1; j >= 0; j-- {
			n = n.child(pa.Callers[j].Func, false)
			n.v += v
		}
		l := &r.Lines[pa.Line]
		n = n.child(l.Func+" "+htmlPos(l.File, l.Line), true)
		n.v += v
	}
	b := &htmlFlameBlock{Q: q, Hidden: hidden, Total: Bytes(top.v), W: flameWidth}
	if neg > 0 {
		b.Left = Bytes(neg) + " of negative shares (frees) not drawn"
	}
	if top.v == 0 {
		return b
	}
	depth := 0
	var lay func(n *flameNode, x float64, d int)
	lay = func(n *flameNode, x float64, d int) {
		w := float64(n.v) / float64(top.v) * flameWidth
		if w < flameMinW || d >= flameMaxDep {
			return
		}
		depth = max(depth, d+1)
		node := htmlFlameNode{X: x, Y: float64(d * flameRow), W: w, H: flameRow - 1, Name: n.name, Leaf: n.leaf,
			Title: fmt.Sprintf("%s: %s, %s of MHWM_%d", n.name, Bytes(n.v), htmlPercent(n.v, top.v), q)}
		node.Color = flameLeaf
		if !n.leaf {
			h := fnv.New32a()
			h.Write([]byte(n.name))
			node.Color = flameColors[h.Sum32()%uint32(len(flameColors))]
		}
		if c := int((w - 6) / flameCharW); c >= 3 {
			node.Label = cut(n.name, c)
		}
		b.Nodes = append(b.Nodes, node)
		slices.SortFunc(n.kids, func(a, c *flameNode) int { return strings.Compare(a.name, c.name) })
		for _, k := range n.kids {
			lay(k, x, d+1)
			x += float64(k.v) / float64(top.v) * flameWidth
		}
	}
	lay(top, 0, 0)
	b.H = depth * flameRow
	return b
}

// cut shortens s to at most n characters, with an ellipsis.
func cut(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}
