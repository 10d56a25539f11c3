package rtlib

// Ancestors in a root's task tree. A chain of goroutines each spawning the
// next (a worker pool that hands its work on, a pipeline built
// recursively) makes the tree as deep as the run is long, and the walks
// up it at every census and spawn made a run quadratic (pond's 100 000
// tasks: 553 s). Each dnode has a jump pointer (Myers' skew-binary
// scheme: the jump's depth depends on the depth alone), so that the
// ancestor at a given depth, and where two branches meet, take
// O(log depth) steps; and a count of its children whose subtrees have
// not ended, so that ending a task updates its ancestors once, when its
// whole subtree has ended, not at every spawn and end.

// jumpFor returns the jump pointer of a new child of p.
func jumpFor(p *dnode) *dnode {
	if j := p.jump; j != nil && j.jump != nil && p.depth-j.depth == j.depth-j.jump.depth {
		return j.jump
	}
	return p
}

// ancestorAt returns d's ancestor at depth (d itself at its own depth);
// depth must be between 0 and d.depth.
func ancestorAt(d *dnode, depth int32) *dnode {
	for d.depth > depth {
		if j := d.jump; j != nil && j.depth >= depth {
			d = j
		} else {
			d = d.parent
		}
	}
	return d
}

// ancestorOrSelf reports whether a is d or one of d's ancestors.
func ancestorOrSelf(a, d *dnode) bool {
	return d != nil && d.depth >= a.depth && ancestorAt(d, a.depth) == a
}

// branches returns the children of the nearest common ancestor of x and
// y, two distinct dnodes at the same depth, on the way to each.
func branches(x, y *dnode) (bx, by *dnode) {
	for x.parent != y.parent {
		// Jumps of dnodes at one depth go to one depth: when they
		// differ, the common ancestor is above them.
		if x.jump != y.jump && x.jump != nil && y.jump != nil {
			x, y = x.jump, y.jump
		} else {
			x, y = x.parent, y.parent
		}
	}
	return x, y
}

// subtreeDone reports whether every dnode of d's subtree has finished.
func (d *dnode) subtreeDone() bool { return d.finished && d.liveKids == 0 }

// settled is called when d finished: if its subtree is done, its parent
// has one child fewer to wait for, and so on up.
func (d *dnode) settled() {
	for a := d; a.subtreeDone() && a.parent != nil; a = a.parent {
		a.parent.liveKids--
	}
}
