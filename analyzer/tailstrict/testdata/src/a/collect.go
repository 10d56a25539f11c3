package a

import (
	"iter"
	"maps"
	"slices"
)

func use(int) {}

func collectRange(seq iter.Seq[int]) {
	for _, v := range slices.Collect(seq) { // want `tailstrict: slices.Collect materialises the whole sequence seq to range over it once`
		use(v)
	}
}

func collectIndex(seq iter.Seq[int]) {
	for i, v := range slices.Collect(seq) { // want `slices.Collect materialises`
		use(i + v)
	}
}

func collectVar(seq iter.Seq[string], out chan<- string) {
	all := slices.Collect(seq) // want `slices.Collect materialises the whole sequence seq to range over it once`
	for _, s := range all {
		out <- s
	}
}

func collectKeys(m map[string]int) int {
	n := 0
	// Quiet: a view of a map the program holds, not a stream.
	for _, k := range slices.Collect(maps.Keys(m)) {
		n += m[k] + len(m)
	}
	return n
}

// Quiet: the map-key snapshot — the body changes the map.
func snapshot(m map[string]int) {
	for _, k := range slices.Collect(maps.Keys(m)) {
		delete(m, k)
	}
	for _, k := range slices.Collect(maps.Keys(m)) {
		m[k+"x"] = 1
	}
}

type set struct{ m map[string]bool }

func (s *set) remove(k string) { delete(s.m, k) }

// Quiet: a method on the source's owner may change it.
func snapshotMethod(s *set) {
	for _, k := range slices.Collect(maps.Keys(s.m)) {
		s.remove(k)
	}
}

// Quiet: through a variable, the definition's source is changed.
func snapshotVar(m map[int]bool) {
	keys := maps.Keys(m)
	for _, k := range slices.Collect(keys) {
		m[k+1] = true
	}
}

// Quiet: the collected slice is used as a whole.
func whole(seq iter.Seq[int]) []int {
	all := slices.Collect(seq)
	for _, v := range all {
		use(v)
	}
	return all
}

// Quiet: sorted is a use of the whole sequence.
func sortedKeys(m map[string]int) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		use(m[k])
	}
}

func first(seq iter.Seq[int]) int {
	return slices.Collect(seq)[0] // want `slices.Collect materialises the whole sequence seq to take its first element`
}

func firstVar(seq iter.Seq[int]) int {
	all := slices.Collect(seq) // want `to take its first element`
	if len(all) == 0 {
		return -1
	}
	return all[0]
}

// Quiet: more than the first element.
func firstTwo(seq iter.Seq[int]) int {
	all := slices.Collect(seq)
	return all[0] + all[1]
}

type tree struct{ items []int }

func (t *tree) All() iter.Seq[int] { return slices.Values(t.items) }

// Quiet: a method's iterator walks what its receiver holds.
func viewOfTree(t *tree) {
	for _, v := range slices.Collect(t.All()) {
		use(v)
	}
}

// A generator: a stream.
func naturals(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func generated() {
	for _, v := range slices.Collect(naturals(1 << 20)) { // want `slices.Collect materialises the whole sequence naturals\(1 << 20\)`
		use(v)
	}
}
