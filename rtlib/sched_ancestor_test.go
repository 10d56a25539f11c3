package rtlib

import (
	"math/rand/v2"
	"testing"
)

// TestAncestors checks the jump-pointer queries against walks up the
// parent links on random trees, deep chains among them.
func TestAncestors(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		root := &dnode{}
		nodes := []*dnode{root}
		for range 2000 {
			// Mostly extend a recent node: chains as deep as the tree.
			p := nodes[len(nodes)-1-rng.IntN(min(len(nodes), 1+int(seed%4)*20))]
			d := &dnode{parent: p, depth: p.depth + 1, jump: jumpFor(p)}
			nodes = append(nodes, d)
		}
		naiveAt := func(d *dnode, depth int32) *dnode {
			for d.depth > depth {
				d = d.parent
			}
			return d
		}
		for range 500 {
			a, b := nodes[rng.IntN(len(nodes))], nodes[rng.IntN(len(nodes))]
			depth := int32(rng.IntN(int(a.depth) + 1))
			if got, want := ancestorAt(a, depth), naiveAt(a, depth); got != want {
				t.Fatalf("seed %d: ancestorAt(depth %d, %d) = depth %d, want depth %d", seed, a.depth, depth, got.depth, want.depth)
			}
			if got, want := ancestorOrSelf(b, a), b.depth <= a.depth && naiveAt(a, b.depth) == b; got != want {
				t.Fatalf("seed %d: ancestorOrSelf = %v, want %v", seed, got, want)
			}
			x, y := naiveAt(a, min(a.depth, b.depth)), naiveAt(b, min(a.depth, b.depth))
			if x == y {
				continue
			}
			bx, by := branches(x, y)
			wx, wy := x, y
			for wx.parent != wy.parent {
				wx, wy = wx.parent, wy.parent
			}
			if bx != wx || by != wy {
				t.Fatalf("seed %d: branches at depths %d, %d differ from the walk's", seed, bx.depth, by.depth)
			}
		}
	}
}

// TestSubtreeDone: a dnode's subtree is done once it and every
// descendant finished, in whatever order they finish.
func TestSubtreeDone(t *testing.T) {
	root := &dnode{}
	child := &dnode{parent: root, depth: 1}
	grand := &dnode{parent: child, depth: 2}
	root.liveKids, child.liveKids = 1, 1
	finish := func(d *dnode) { d.finished = true; d.settled() }
	finish(child) // ends before its own goroutine
	if child.subtreeDone() || root.liveKids != 1 {
		t.Fatalf("child done with a running grandchild")
	}
	finish(grand)
	if !child.subtreeDone() || root.liveKids != 0 {
		t.Fatalf("child's subtree not done after the grandchild ended (root waits for %d)", root.liveKids)
	}
	finish(root)
	if !root.subtreeDone() {
		t.Fatal("root not done")
	}
}
