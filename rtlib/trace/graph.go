package trace

import (
	"fmt"
	"slices"
)

// Header is the first line of every trace file.
const Header = "spgo.trace/v1"

// Limits of what a trace may hold. Bounding the totals of a root keeps
// every sum a simulator forms (memory, time) within int64.
const (
	// MaxBytes bounds Σ Peak + Σ |Net| over the strands of one root.
	MaxBytes = 1 << 62
	// MaxWork bounds Σ Work over the strands of one root, in nanoseconds.
	MaxWork = 1 << 62
	// MaxName bounds the length of a site or root name, quoted.
	MaxName = 64 << 10
	// MaxLine bounds the length of a line of a trace file.
	MaxLine = 1 << 20
)

// SiteBytes is one site's share of a strand's weights.
type SiteBytes struct {
	Site   int32 // the allocation site; 0 is "(unattributed)"
	Net    int64 // the strand's net bytes at Site
	AtPeak int64 // Site's share of the strand's running sum when it first reached Peak
}

// Strand is a maximal run of one task between two scheduling events.
type Strand struct {
	ID    int32       // 0..n-1, in the order the strands started in the recorded run
	Task  int32       // the task it belongs to
	Work  int64       // duration in nanoseconds, ≥ 0
	Net   int64       // s(e): bytes allocated minus bytes freed; may be negative
	Peak  int64       // m(e): max(0, max prefix of the running sum), ≥ max(0, Net)
	Sites []SiteBytes // per-site split: Σ Net = Net, Σ AtPeak = Peak; sites distinct
}

// DepKind says what a dependency between two strands stands for.
type DepKind uint8

// The kinds of Dep. The zero value is not a kind.
const (
	Spawn DepKind = iota + 1 // parent's strand ended at a spawn → the child's first strand
	Cont                     // the same strand → the parent's next strand
	Seq                      // a task's strand → its next strand, split by a join or a blocking operation
	Join                     // a joined child's last strand → the parent's strand after the Wait
	Chan                     // a send or close → the strand after the matching receive (or the capacity edge back)
	Mutex                    // an unlock → the strand after the matching lock
	Cond                     // a signal or broadcast → the strand after the wake-up
	Other                    // any other synchronisation between tasks
)

var kindNames = [...]string{Spawn: "spawn", Cont: "cont", Seq: "seq", Join: "join", Chan: "chan", Mutex: "mutex", Cond: "cond", Other: "other"}

// String returns the kind's name in the file format ("spawn", "cont", …).
func (k DepKind) String() string {
	if k >= Spawn && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("DepKind(%d)", uint8(k))
}

// Valid reports whether k is one of the declared kinds.
func (k DepKind) Valid() bool { return k >= Spawn && k <= Other }

// ParseDepKind returns the kind named s, as String writes it.
func ParseDepKind(s string) (DepKind, error) {
	for k := Spawn; k <= Other; k++ {
		if kindNames[k] == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown dep kind %q", s)
}

// Dep says that strand To cannot start before strand From has ended.
type Dep struct {
	From, To int32   // strand IDs
	Kind     DepKind // what the dependency stands for
}

// Task is a goroutine of the recorded run.
type Task struct {
	ID     int32 // distinct within a root
	Parent int32 // the spawning task; -1 for the root's task
	Site   int32 // the spawn site (0 for the root's task)
}

// Graph is the recorded computation graph of one root.
type Graph struct {
	Name    string           // the root's name (main, a test)
	Sites   map[int32]string // site names (file:line) declared before the root's end
	Tasks   []Task           // in the order they were recorded
	Strands []Strand         // Strands[i].ID == i
	Deps    []Dep            // in the order they were recorded
	// Censuses are the recorded run's censuses (garbage collections that
	// found deaths), by number. Read has merged every Cut back into the
	// strand it was cut from; Censuses, Frees and Deps refer to the merged
	// strands.
	Censuses []Census
	// Frees are the deaths whose place the recorder left to the reader
	// (see Free); Read has added each to the weights of strand Placed.
	Frees []Free
}

// Census is a garbage collection of the recorded run that found deaths.
type Census struct {
	// Ran lists the strands that ran since the previous census: one of
	// them dropped the last reference to each object this census found
	// dead.
	Ran []int32
	// Cut is the strand the census cut off the running task's strand
	// (-1: none): the deaths it found can be placed at its start, inside
	// the task's run. Read merges it back with the strand before it (a Seq
	// dep), so that the cut is no scheduling point.
	Cut int32
}

// Free is a death the recorder could not place in a strand it knew: the
// series-parallel accounting charges it at the start of strand At (the
// strand after a join), but a synchronisation edge (a channel, a lock)
// may order an earlier strand after every strand that might have dropped
// the object's last reference. Read places it at the start of the first
// strand, in a topological order, that follows Alloc and every strand of
// census Census, if that strand comes before At, else at At.
type Free struct {
	At     int32 // the series-parallel charge point
	Site   int32 // the allocation site
	Bytes  int64 // > 0
	Census int32 // the census that found the death
	Alloc  int32 // the (last) strand that allocated the bytes; -1 if unknown
	Placed int32 // where Read placed it
}

// Validate checks every invariant Read checks: strand weights and site
// sums, IDs dense from 0, tasks declared with declared parents and one
// root task (strand 0's), deps between known strands, no cycle, and the
// root's totals within MaxBytes and MaxWork.
func (g *Graph) Validate() error {
	if p := g.check(); p != nil {
		return fmt.Errorf("trace: root %q: %s", g.Name, p.msg)
	}
	return nil
}

// What a problem found by check refers to.
const (
	inRoot = iota
	inStrand
	inTask
	inDep
)

// problem is an invariant violation: msg about item idx of kind what.
type problem struct {
	what, idx int
	msg       string
}

func fail(what, idx int, format string, args ...any) *problem {
	return &problem{what, idx, fmt.Sprintf(format, args...)}
}

// add returns a+b and whether it did not overflow.
func add(a, b int64) (int64, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}

// checkStrand checks one strand's own weights.
func checkStrand(s *Strand) string {
	switch {
	case s.ID < 0:
		return fmt.Sprintf("negative strand ID %d", s.ID)
	case s.Task < 0:
		return fmt.Sprintf("strand %d: negative task %d", s.ID, s.Task)
	case s.Work < 0 || s.Work > MaxWork:
		return fmt.Sprintf("strand %d: work %d out of range 0..2^62", s.ID, s.Work)
	case s.Net < -MaxBytes || s.Net > MaxBytes:
		return fmt.Sprintf("strand %d: net %d out of range ±2^62", s.ID, s.Net)
	case s.Peak > MaxBytes:
		return fmt.Sprintf("strand %d: peak %d above 2^62", s.ID, s.Peak)
	case s.Peak < max(0, s.Net):
		return fmt.Sprintf("strand %d: peak %d below max(0, net %d)", s.ID, s.Peak, s.Net)
	}
	var net, pk int64
	ok := true
	for i, sb := range s.Sites {
		if sb.Site < 0 {
			return fmt.Sprintf("strand %d: negative site %d", s.ID, sb.Site)
		}
		if sb.Net < -MaxBytes || sb.Net > MaxBytes || sb.AtPeak < -MaxBytes || sb.AtPeak > MaxBytes {
			return fmt.Sprintf("strand %d: site %d bytes out of range ±2^62", s.ID, sb.Site)
		}
		if ok {
			var o1, o2 bool
			net, o1 = add(net, sb.Net)
			pk, o2 = add(pk, sb.AtPeak)
			ok = o1 && o2
		}
		if dupSite(s.Sites[:i], sb.Site) {
			return fmt.Sprintf("strand %d: site %d listed twice", s.ID, sb.Site)
		}
	}
	if !ok {
		return fmt.Sprintf("strand %d: site sums overflow", s.ID)
	}
	if net != s.Net {
		return fmt.Sprintf("strand %d: site nets sum to %d, not net %d", s.ID, net, s.Net)
	}
	if pk != s.Peak {
		return fmt.Sprintf("strand %d: site shares at peak sum to %d, not peak %d", s.ID, pk, s.Peak)
	}
	return ""
}

// dupSite reports whether site occurs in prev. Strands list few sites, so
// a scan is cheaper than a set below a few dozen entries.
func dupSite(prev []SiteBytes, site int32) bool {
	for _, p := range prev {
		if p.Site == site {
			return true
		}
	}
	return false
}

// check validates g; it returns nil or the first problem found.
func (g *Graph) check() *problem {
	n := len(g.Strands)
	if n == 0 {
		return fail(inRoot, 0, "no strands")
	}
	if n > 1<<31-1 {
		return fail(inRoot, 0, "more than 2^31-1 strands")
	}
	var bytes, work int64
	for i := range g.Strands {
		s := &g.Strands[i]
		if msg := checkStrand(s); msg != "" {
			return fail(inStrand, i, "%s", msg)
		}
		if int(s.ID) != i {
			return fail(inStrand, i, "strand %d at index %d", s.ID, i)
		}
		bytes += s.Peak + max(s.Net, -s.Net) // each term ≤ 2^62: no overflow before the test
		work += s.Work
		if bytes > MaxBytes {
			return fail(inStrand, i, "strand %d: the root's Σ peak + Σ |net| exceeds 2^62", s.ID)
		}
		if work > MaxWork {
			return fail(inStrand, i, "strand %d: the root's Σ work exceeds 2^62", s.ID)
		}
	}
	if p := g.checkTasks(); p != nil {
		return p
	}
	for i, d := range g.Deps {
		if !d.Kind.Valid() {
			return fail(inDep, i, "dep %d→%d: invalid kind %d", d.From, d.To, uint8(d.Kind))
		}
		for _, e := range [2]int32{d.From, d.To} {
			if e < 0 || int(e) >= n {
				return fail(inDep, i, "dep %d→%d: unknown strand %d", d.From, d.To, e)
			}
		}
	}
	return g.checkAcyclic()
}

// checkTasks checks that every strand's task is declared, that every
// task's parent is declared, that parents form a tree rooted at strand 0's
// task, and that task IDs are distinct.
func (g *Graph) checkTasks() *problem {
	idx := make(map[int32]int, len(g.Tasks))
	for i, t := range g.Tasks {
		if t.ID < 0 || t.Parent < -1 || t.Site < 0 {
			return fail(inTask, i, "task %d: negative ID, parent or site", t.ID)
		}
		if _, dup := idx[t.ID]; dup {
			return fail(inTask, i, "task %d declared twice", t.ID)
		}
		idx[t.ID] = i
	}
	for i, s := range g.Strands {
		if _, ok := idx[s.Task]; !ok {
			return fail(inStrand, i, "strand %d: unknown task %d", s.ID, s.Task)
		}
	}
	root := g.Strands[0].Task
	// Walk each task's parent chain; depth[i] memoises finished walks.
	const unseen, onPath = 0, -1
	depth := make([]int, len(g.Tasks))
	var path []int
	for i := range g.Tasks {
		path = path[:0]
		j := i
		for depth[j] == unseen {
			t := g.Tasks[j]
			if t.Parent == -1 {
				if t.ID != root {
					return fail(inTask, j, "task %d has no parent but is not the root task %d (strand 0's)", t.ID, root)
				}
				depth[j] = 1
				break
			}
			if t.ID == root {
				return fail(inTask, j, "root task %d (strand 0's) has parent %d, want -1", t.ID, t.Parent)
			}
			k, ok := idx[t.Parent]
			if !ok {
				return fail(inTask, j, "task %d: unknown parent task %d", t.ID, t.Parent)
			}
			depth[j] = onPath
			path = append(path, j)
			j = k
		}
		if depth[j] == onPath {
			return fail(inTask, j, "task %d is its own ancestor", g.Tasks[j].ID)
		}
		for _, k := range slices.Backward(path) {
			depth[k] = depth[g.taskIndex(idx, k)] + 1
		}
	}
	return nil
}

// taskIndex returns the index of task k's parent.
func (g *Graph) taskIndex(idx map[int32]int, k int) int { return idx[g.Tasks[k].Parent] }

// checkAcyclic runs Kahn's algorithm over the deps and, if some strand is
// never freed, walks back from it to name a strand on a cycle.
func (g *Graph) checkAcyclic() *problem {
	n := len(g.Strands)
	queue, indeg := g.kahn()
	if len(queue) == n {
		return nil
	}
	return g.cycleProblem(indeg)
}

// kahn runs Kahn's algorithm over the deps: it returns the strands in
// the order it frees them (all of them iff the graph is acyclic) and the
// in-degrees left.
func (g *Graph) kahn() (order, indeg []int32) {
	n := len(g.Strands)
	indeg = make([]int32, n)
	start := make([]int32, n+1) // CSR of out-deps by source
	for _, d := range g.Deps {
		indeg[d.To]++
		start[d.From+1]++
	}
	for i := range n {
		start[i+1] += start[i]
	}
	out := make([]int32, len(g.Deps)) // dep indices
	fill := slices.Clone(start[:n])
	for i, d := range g.Deps {
		out[fill[d.From]] = int32(i)
		fill[d.From]++
	}
	queue := make([]int32, 0, n)
	for i := range n {
		if indeg[i] == 0 {
			queue = append(queue, int32(i))
		}
	}
	for h := 0; h < len(queue); h++ {
		u := queue[h]
		for _, di := range out[start[u]:start[u+1]] {
			v := g.Deps[di].To
			if indeg[v]--; indeg[v] == 0 {
				queue = append(queue, v)
			}
		}
	}
	return queue, indeg
}

// cycleProblem names a strand on a cycle, given the in-degrees Kahn's
// algorithm left: every strand left has a predecessor left.
func (g *Graph) cycleProblem(indeg []int32) *problem {
	n := len(g.Strands)
	// Every strand left has a predecessor left: follow incoming deps
	// until a strand repeats; it lies on a cycle.
	back := make([]int, n) // one incoming dep from a strand left, +1
	for i, d := range g.Deps {
		if indeg[d.From] > 0 && indeg[d.To] > 0 && back[d.To] == 0 {
			back[d.To] = i + 1
		}
	}
	v := int32(-1)
	for i := range n {
		if indeg[i] > 0 {
			v = int32(i)
			break
		}
	}
	seen := make(map[int32]bool)
	for !seen[v] {
		seen[v] = true
		v = g.Deps[back[v]-1].From
	}
	di := back[v] - 1
	return fail(inDep, di, "cycle through strand %d (dep %d→%d)", v, g.Deps[di].From, g.Deps[di].To)
}
