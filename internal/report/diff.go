package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spgo/spgo/rtlib/profile"
)

// Diff compares two worst cases line by line: two profiles (a baseline
// and a change) at one processor count, or one profile at two.
type Diff struct {
	// Base and Change label the two sides: file names, or "p=4".
	Base, Change string
	// BasePartial and ChangePartial say a side's run did not end
	// normally: its figures cover only what ran.
	BasePartial, ChangePartial bool
	// Noise is the noise floor SetNoise applied (zero: none).
	Noise Noise
	// Notes warn about the pair: profiles of two programs, or of two
	// pmax (compared at the larger p both have).
	Notes []string
	Roots []RootDiff
}

// RootDiff is one root's comparison. The lines' deltas sum exactly to
// Change − Base.
type RootDiff struct {
	Name string
	// Status is "matched", "added" (only in the change) or "removed"
	// (only in the baseline).
	Status string
	// BaseQ and ChangeQ are the processor counts compared.
	BaseQ, ChangeQ int
	// Base and Change are MHWM_BaseQ of the baseline and MHWM_ChangeQ of
	// the change (0 for the missing side of an added or removed root).
	Base, Change int64
	// Exact is false when a side's figure is an upper bound.
	BaseExact, ChangeExact bool
	// removedOK lets a removed root pass the gate (Diff.AllowRemoved).
	removedOK bool
	// Noise is set by SetNoise when the root is matched and its change
	// is within the noise floor: it then never fails the gate.
	Noise bool
	// Lines are the lines whose share changed: increases, largest
	// first, then decreases, largest first, then (after SetNoise) the
	// lines within the noise floor.
	Lines []LineDiff
}

// Delta returns Change − Base.
func (r *RootDiff) Delta() int64 { return r.Change - r.Base }

// Percent returns the change relative to Base in percent: +Inf for
// growth from nothing (−Inf cannot happen: figures are not negative).
func (r *RootDiff) Percent() float64 {
	if r.Base == 0 {
		if r.Change == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return 100 * float64(r.Change-r.Base) / float64(r.Base)
}

// PercentString formats Percent: "+5.9%", or "from 0".
func (r *RootDiff) PercentString() string {
	if r.Base == 0 && r.Change != 0 {
		return "from 0"
	}
	return fmt.Sprintf("%+.1f%%", r.Percent())
}

// LineDiff is one line's share on both sides. Lines of two profiles are
// matched by function and source text (and order among equal ones), so a
// line that moved still matches; a line left over on each side is then
// matched to an edited version of itself (same file and function,
// similar text, nearest position: matchEdited). BaseLine and Line are
// its numbers on either side (0 where absent).
type LineDiff struct {
	File, Func, Text string
	// BaseText is the baseline's text of an edited line ("" when the
	// text is the same on both sides).
	BaseText       string
	BaseLine, Line int
	Base, Change   int64
	// Noise is set by Diff.SetNoise when the change is within the floor.
	Noise bool
}

// Delta returns Change − Base.
func (l *LineDiff) Delta() int64 { return l.Change - l.Base }

// Pos returns file:line on the change side, or the baseline's when the
// line is gone.
func (l *LineDiff) Pos() string {
	if l.Line > 0 {
		return l.File + ":" + strconv.Itoa(l.Line)
	}
	if l.BaseLine > 0 {
		return l.File + ":" + strconv.Itoa(l.BaseLine)
	}
	return l.File
}

// unattributed names the part of a figure no line accounts for (never
// seen in a complete exact-mode profile; kept so that sums hold).
const unattributed = "(unattributed)"

// DiffProfiles compares every root of change with the root of the same
// name in base at processor count q (0: the largest both profiles have).
func DiffProfiles(base, change *profile.Profile, baseName, changeName string, q int) (*Diff, error) {
	if q == 0 {
		q = min(base.PMax, change.PMax)
	}
	for _, s := range []struct {
		name string
		p    *profile.Profile
	}{{baseName, base}, {changeName, change}} {
		if q < 1 || q > s.p.PMax {
			return nil, fmt.Errorf("diff: p = %d is outside %s (pmax %d)", q, s.name, s.p.PMax)
		}
		if !hasFigures(s.p) {
			return nil, fmt.Errorf("diff: %s has no MHWM figures (a threshold-mode run); rerun without -threshold", s.name)
		}
	}
	d := &Diff{Base: baseName, Change: changeName, BasePartial: base.Partial, ChangePartial: change.Partial}
	if base.Program != "" && change.Program != "" && base.Program != change.Program {
		d.Notes = append(d.Notes, fmt.Sprintf("warning: the profiles are of two programs (%s and %s): roots match by name only", base.Program, change.Program))
	}
	if base.PMax != change.PMax {
		d.Notes = append(d.Notes, fmt.Sprintf("warning: the profiles have different pmax (%d and %d): compared at p = %d", base.PMax, change.PMax, q))
	}
	seen := map[string]bool{}
	for i := range change.Roots {
		c := &change.Roots[i]
		seen[c.Name] = true
		b := findRoot(base, c.Name)
		rd, err := diffRoot(b, c, q, q)
		if err != nil {
			return nil, err
		}
		d.Roots = append(d.Roots, rd)
	}
	for i := range base.Roots {
		if b := &base.Roots[i]; !seen[b.Name] {
			rd, err := diffRoot(b, nil, q, q)
			if err != nil {
				return nil, err
			}
			d.Roots = append(d.Roots, rd)
		}
	}
	return d, nil
}

// DiffPs compares MHWM_q with MHWM_q2 within one profile: the lines that
// make up the growth from q to q2 processors.
func DiffPs(p *profile.Profile, q, q2 int) (*Diff, error) {
	if !hasFigures(p) {
		return nil, fmt.Errorf("diff: the profile has no MHWM figures (a threshold-mode run); rerun without -threshold")
	}
	for _, x := range []int{q, q2} {
		if x < 1 || x > p.PMax {
			return nil, fmt.Errorf("diff: p = %d is outside the profile (pmax %d)", x, p.PMax)
		}
	}
	d := &Diff{Base: "p=" + strconv.Itoa(q), Change: "p=" + strconv.Itoa(q2), BasePartial: p.Partial, ChangePartial: p.Partial}
	for i := range p.Roots {
		r := &p.Roots[i]
		rd, err := diffRoot(r, r, q, q2)
		if err != nil {
			return nil, err
		}
		d.Roots = append(d.Roots, rd)
	}
	return d, nil
}

func hasFigures(p *profile.Profile) bool {
	for i := range p.Roots {
		if len(p.Roots[i].MHWM) > 0 {
			return true
		}
	}
	return len(p.Roots) == 0
}

func findRoot(p *profile.Profile, name string) *profile.Root {
	for i := range p.Roots {
		if p.Roots[i].Name == name {
			return &p.Roots[i]
		}
	}
	return nil
}

// share is one side's figures for one root at one q, by matching key.
type share struct {
	total int64
	exact bool
	lines map[lineMatch]*profile.Line
	bytes map[lineMatch]int64
	order []lineMatch
}

// lineMatch identifies a line across two versions of a program: its
// function and source text, and which of several equal lines it is.
// Without the text (the file was not readable), the file and number.
type lineMatch struct {
	fn, text, file string
	line, nth      int
}

func sideOf(r *profile.Root, q int) (*share, error) {
	s := &share{lines: map[lineMatch]*profile.Line{}, bytes: map[lineMatch]int64{}}
	if r == nil {
		s.exact = true
		return s, nil
	}
	if len(r.MHWM) == 0 {
		return nil, fmt.Errorf("diff: root %q has no MHWM figures (a threshold-mode run)", r.Name)
	}
	s.total, _ = r.MHWMAt(q)
	s.exact = r.Exact
	if _, ok := r.AttributedAt(q); !ok {
		return nil, fmt.Errorf("diff: root %q has no per-line figures for p = %d (%s)", r.Name, q, attributedHint(r))
	}
	nth := map[lineMatch]int{}
	sum := int64(0)
	for i := range r.Lines {
		l := &r.Lines[i]
		k := lineMatch{fn: l.Func, text: l.Text}
		if l.Text == "" {
			k.file, k.line = l.File, l.Line
		}
		base := k
		k.nth = nth[base]
		nth[base]++
		b, _, _ := r.LineMHWM(l, q)
		s.lines[k], s.bytes[k] = l, b
		s.order = append(s.order, k)
		sum += b
	}
	if rest := s.total - sum; rest != 0 {
		k := lineMatch{fn: unattributed, text: unattributed}
		s.lines[k] = &profile.Line{File: unattributed, Func: unattributed}
		s.bytes[k] = rest
		s.order = append(s.order, k)
	}
	return s, nil
}

// diffRoot compares root b at q with root c at q2; either may be nil.
func diffRoot(b, c *profile.Root, q, q2 int) (RootDiff, error) {
	bs, err := sideOf(b, q)
	if err != nil {
		return RootDiff{}, err
	}
	cs, err := sideOf(c, q2)
	if err != nil {
		return RootDiff{}, err
	}
	rd := RootDiff{Status: "matched", BaseQ: q, ChangeQ: q2, Base: bs.total, Change: cs.total, BaseExact: bs.exact, ChangeExact: cs.exact}
	switch {
	case c == nil:
		rd.Name, rd.Status = b.Name, "removed"
	case b == nil:
		rd.Name, rd.Status = c.Name, "added"
	default:
		rd.Name = c.Name
	}
	edited := matchEdited(bs, cs)
	keys := append(slices.Clone(cs.order), bs.order...)
	done := map[lineMatch]bool{}
	for _, k := range keys {
		if done[k] {
			continue
		}
		done[k] = true
		ld := LineDiff{Base: bs.bytes[k], Change: cs.bytes[k]}
		bl, cl := bs.lines[k], cs.lines[k]
		if bk, ok := edited[k]; ok {
			done[bk] = true
			ld.Base, bl = bs.bytes[bk], bs.lines[bk]
			ld.BaseText = bl.Text
		}
		if ld.Base == ld.Change {
			continue
		}
		if bl != nil {
			ld.File, ld.Func, ld.Text, ld.BaseLine = bl.File, bl.Func, bl.Text, bl.Line
		}
		if cl != nil {
			ld.File, ld.Func, ld.Text, ld.Line = cl.File, cl.Func, cl.Text, cl.Line
		}
		rd.Lines = append(rd.Lines, ld)
	}
	sortLines(rd.Lines)
	return rd, nil
}

// attributedHint says which p have per-line figures and how to get more.
func attributedHint(r *profile.Root) string {
	if len(r.Attributed) == 0 {
		return "the profile has none"
	}
	return fmt.Sprintf("the run gave them for p = %s; SPGO_ATTRIBUTE=%d in the program's environment gives every p", strings.Trim(fmt.Sprint(r.Attributed), "[]"), len(r.MHWM)+1)
}
