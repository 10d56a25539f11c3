package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Noise is the noise floor of a diff between two runs: a change from b
// to c bytes is noise when |c − b| is at most the larger of Bytes and
// Percent per cent of max(b, c). Two runs of one program differ by a few
// KiB of runtime allocations (goroutine stacks, the allocation cache, a
// census's lag); lines within the floor get no annotation and are
// summarised in one row, and a matched root within it does not fail the
// gate. The zero Noise is no floor: only equal figures are noise.
type Noise struct {
	Bytes   int64
	Percent float64
}

// DefaultNoise is spreport diff's floor: max(32 KiB, 1 %). Two runs of
// the tiles example under two builds of the runtime moved its lines by
// up to 14.4 KiB (BENCHMARKS.md counts the figures exact within 3 % +
// 256 KiB, far above it).
func DefaultNoise() Noise { return Noise{Bytes: 32 << 10, Percent: 1} }

// ParseNoise parses a floor: a size, a percentage or both, comma
// separated ("32KiB,1%", "64KiB", "2%"); "0" or "off" is no floor.
func ParseNoise(s string) (Noise, error) {
	t := strings.TrimSpace(s)
	if t == "off" || t == "0" {
		return Noise{}, nil
	}
	var n Noise
	var seenSize, seenPct bool
	for _, part := range strings.Split(t, ",") {
		l, err := ParseLimit(part)
		if err != nil {
			return Noise{}, fmt.Errorf("bad noise floor %q: want a size, a percentage or both, like 32KiB,1%%, or off", s)
		}
		if l.IsPercent {
			if seenPct {
				return Noise{}, fmt.Errorf("bad noise floor %q: two percentages", s)
			}
			n.Percent, seenPct = l.Percent, true
		} else {
			if seenSize {
				return Noise{}, fmt.Errorf("bad noise floor %q: two sizes", s)
			}
			n.Bytes, seenSize = l.Bytes, true
		}
	}
	return n, nil
}

// String describes the floor: "max(32 KiB, 1%)", "32 KiB", "1%", or
// "none".
func (n Noise) String() string {
	pct := strconv.FormatFloat(n.Percent, 'g', -1, 64) + "%"
	switch {
	case n.Bytes > 0 && n.Percent > 0:
		return fmt.Sprintf("max(%s, %s)", Bytes(n.Bytes), pct)
	case n.Bytes > 0:
		return Bytes(n.Bytes)
	case n.Percent > 0:
		return pct
	}
	return "none"
}

// Spec returns the floor as ParseNoise reads it: "32 KiB,1%", "off".
func (n Noise) Spec() string {
	var parts []string
	if n.Bytes > 0 {
		parts = append(parts, Bytes(n.Bytes))
	}
	if n.Percent > 0 {
		parts = append(parts, strconv.FormatFloat(n.Percent, 'g', -1, 64)+"%")
	}
	if len(parts) == 0 {
		return "off"
	}
	return strings.Join(parts, ",")
}

// Floor returns the largest change from b to c that is noise.
func (n Noise) Floor(b, c int64) int64 {
	rel := int64(n.Percent / 100 * float64(max(b, c)))
	return max(n.Bytes, rel)
}

// Within reports whether the change from b to c is noise.
func (n Noise) Within(b, c int64) bool {
	d := c - b
	if d < 0 {
		d = -d
	}
	return d <= n.Floor(b, c)
}

// SetNoise applies the floor n to d: it marks the lines within it and
// the matched roots within it (a root only one side has is never
// noise: it did not jitter into or out of existence), then sorts each
// root's lines again. Use it on a diff of two runs; the two processor
// counts of one run (DiffPs) have no jitter between them.
func (d *Diff) SetNoise(n Noise) {
	d.Noise = n
	for i := range d.Roots {
		r := &d.Roots[i]
		r.Noise = r.Status == "matched" && r.Delta() != 0 && n.Within(r.Base, r.Change)
		for j := range r.Lines {
			l := &r.Lines[j]
			l.Noise = n.Within(l.Base, l.Change)
		}
		sortLines(r.Lines)
	}
}

// sortLines orders a root's changed lines: those above the noise floor
// first, increases before decreases, each largest first; then those
// within the floor, largest first. Ties go by file and line.
func sortLines(lines []LineDiff) {
	rank := func(l *LineDiff) int {
		switch {
		case l.Noise:
			return 2
		case l.Delta() > 0:
			return 0
		}
		return 1
	}
	abs := func(n int64) int64 { return max(n, -n) }
	slices.SortStableFunc(lines, func(x, y LineDiff) int {
		if c := cmp.Compare(rank(&x), rank(&y)); c != 0 {
			return c
		}
		if c := cmp.Compare(abs(y.Delta()), abs(x.Delta())); c != 0 {
			return c
		}
		if c := cmp.Compare(x.File, y.File); c != 0 {
			return c
		}
		return cmp.Compare(max(x.Line, x.BaseLine), max(y.Line, y.BaseLine))
	})
}

// noiseSummary counts the lines of r within the noise floor and sums
// their deltas.
func noiseSummary(r *RootDiff) (n int, net int64) {
	for _, l := range r.Lines {
		if l.Noise {
			n++
			net += l.Delta()
		}
	}
	return n, net
}
