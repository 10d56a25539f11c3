package report

import (
	"cmp"
	"slices"
)

// minSimilarity is how alike two lines' texts must be (1 − edit
// distance / longer length) for one to be taken as an edit of the other:
// "buf := make([]byte, n)" and "buf := make([]byte, 2*n)" are 0.92
// alike, "x := new(T)" and "ch := make(chan int)" 0.2.
const minSimilarity = 0.5

// editPair is a candidate edit: a baseline line left unmatched, the
// change's line it may have become, how alike their texts are and how
// far the change's line is from where the baseline's would now be.
type editPair struct {
	base, change lineMatch
	sim          float64
	dist         int
}

// matchEdited pairs the lines only the baseline has with those only the
// change has, when both are in the same file and function and their
// texts are alike (minSimilarity): the most alike first, then the
// nearest. It returns change key → baseline key. Position is measured
// after the shift of the function's lines that did match (lines above
// it added or removed move it): the shift of the matched line of the
// same function nearest to the baseline's line.
func matchEdited(bs, cs *share) map[lineMatch]lineMatch {
	var onlyBase, onlyChange []lineMatch
	for _, k := range bs.order {
		if _, ok := cs.lines[k]; !ok && k.text != "" && k.fn != unattributed {
			onlyBase = append(onlyBase, k)
		}
	}
	for _, k := range cs.order {
		if _, ok := bs.lines[k]; !ok && k.text != "" && k.fn != unattributed {
			onlyChange = append(onlyChange, k)
		}
	}
	var cands []editPair
	for _, b := range onlyBase {
		bl := bs.lines[b]
		shift := lineShift(bs, cs, bl.Func, bl.File, bl.Line)
		for _, c := range onlyChange {
			cl := cs.lines[c]
			if cl.Func != bl.Func || cl.File != bl.File {
				continue
			}
			sim := similarity(bl.Text, cl.Text)
			if sim < minSimilarity {
				continue
			}
			dist := cl.Line - (bl.Line + shift)
			cands = append(cands, editPair{base: b, change: c, sim: sim, dist: max(dist, -dist)})
		}
	}
	slices.SortStableFunc(cands, func(x, y editPair) int {
		if c := cmp.Compare(y.sim, x.sim); c != 0 {
			return c
		}
		return cmp.Compare(x.dist, y.dist)
	})
	out := map[lineMatch]lineMatch{}
	usedBase := map[lineMatch]bool{}
	for _, p := range cands {
		if _, ok := out[p.change]; ok || usedBase[p.base] {
			continue
		}
		out[p.change], usedBase[p.base] = p.base, true
	}
	return out
}

// lineShift returns how far the lines of function fn in file moved
// between the two sides near baseline line n: the change of number of
// the matched line of fn nearest to n, 0 when none matched.
func lineShift(bs, cs *share, fn, file string, n int) int {
	shift, best := 0, -1
	for _, k := range bs.order {
		bl, cl := bs.lines[k], cs.lines[k]
		if cl == nil || bl.Func != fn || bl.File != file {
			continue
		}
		d := max(bl.Line-n, n-bl.Line)
		if best < 0 || d < best {
			shift, best = cl.Line-bl.Line, d
		}
	}
	return shift
}

// similarity returns 1 − the edit distance of a and b (in runes) over
// the longer one's length: 1 for equal texts, 0 for nothing in common.
func similarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	n := max(len(ra), len(rb))
	if n == 0 {
		return 1
	}
	return 1 - float64(editDistance(ra, rb))/float64(n)
}

// editDistance is the Levenshtein distance of a and b, in two rows.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
