package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Limit is the CI gate's allowed growth of a root's MHWM: a percentage
// of the baseline or a number of bytes.
type Limit struct {
	Percent float64 // used when IsPercent
	Bytes   int64
	// IsPercent says which of the two applies.
	IsPercent bool
}

// String returns the limit as ParseLimit accepts it.
func (l Limit) String() string {
	if l.IsPercent {
		return strconv.FormatFloat(l.Percent, 'g', -1, 64) + "%"
	}
	return Bytes(l.Bytes)
}

// ParseLimit parses "5%", "2.5%", "1MiB", "512KiB", "64MB" or "100B". A
// bare number is refused: 5 would mean five bytes where 5% was meant.
func ParseLimit(s string) (Limit, error) {
	t := strings.TrimSpace(s)
	if pct, ok := strings.CutSuffix(t, "%"); ok {
		v, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
		if err != nil || v < 0 || v != v {
			return Limit{}, fmt.Errorf("bad limit %q: want a percentage ≥ 0 like 5%% or a size like 1MiB", s)
		}
		return Limit{Percent: v, IsPercent: true}, nil
	}
	n, err := ParseSize(t)
	if err != nil || t != "" && t[len(t)-1] >= '0' && t[len(t)-1] <= '9' {
		return Limit{}, fmt.Errorf("bad limit %q: want a percentage like 5%% or a size with its unit like 1MiB or 100B", s)
	}
	return Limit{Bytes: n}, nil
}

// ParseSize parses a byte count with an optional unit, all binary: B,
// KiB, MiB, GiB, TiB, also written K, M, G, T or KB, MB, GB, TB (as
// GOMEMLIMIT and spbuild -threshold). Fractions are allowed: 1.5MiB.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i:])
	shift := -1
	for j, names := range [][]string{{"", "B"}, {"K", "KB", "KiB"}, {"M", "MB", "MiB"}, {"G", "GB", "GiB"}, {"T", "TB", "TiB"}} {
		if slices.Contains(names, unit) {
			shift = 10 * j
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || shift < 0 || v < 0 || v*float64(int64(1)<<shift) >= 1<<62 {
		return 0, fmt.Errorf("bad size %q (want e.g. 512MiB, 2GiB or 1048576)", s)
	}
	return int64(v * float64(int64(1)<<shift)), nil
}

// Exceeds reports whether the root grew past l. A root the base lacks
// (added) grew from nothing: it exceeds every percentage and a size
// below its MHWM, so that a gate cannot be passed by renaming a root. A
// removed root does too, so that a gate cannot be passed by dropping a
// test (the change's run ended early, a profile of something else),
// unless AllowRemoved was called; a matched one whose change SetNoise
// found within the noise floor never does.
func (r *RootDiff) Exceeds(l Limit) bool {
	if r.Status == "removed" {
		return !r.removedOK
	}
	return !r.Noise && r.overLimit(l)
}

// AllowRemoved lets roots the change lacks pass the gate.
func (d *Diff) AllowRemoved() {
	for i := range d.Roots {
		d.Roots[i].removedOK = true
	}
}

// overLimit is Exceeds without the noise floor (a removed root is not
// over any limit: it did not grow).
func (r *RootDiff) overLimit(l Limit) bool {
	if r.Status == "removed" || r.Delta() <= 0 {
		return false
	}
	if l.IsPercent {
		return r.Percent() > l.Percent // +Inf from 0 exceeds any percentage
	}
	return r.Delta() > l.Bytes
}

// failNote says why r fails the gate l.
func (r *RootDiff) failNote(l Limit) string {
	if r.Status == "removed" {
		return "the root is gone from the change (spreport diff -allow-removed passes it)"
	}
	if r.Status == "added" {
		return fmt.Sprintf("new root, not in the base: grew from 0, more than %s", l)
	}
	return "grew more than " + l.String()
}

// failSummary is the gate's verdict: how many roots exceed l, and how
// many of them the base lacks.
func (d *Diff) failSummary(l Limit) string {
	failing := d.Failing(l)
	if len(failing) == 0 {
		quiet := 0
		for i := range d.Roots {
			if d.Roots[i].overLimit(l) {
				quiet++
			}
		}
		if quiet > 0 {
			return fmt.Sprintf("no root grew more than %s beyond the noise floor %s (%d grew within it)", l, d.Noise, quiet)
		}
		return "no root grew more than " + l.String()
	}
	added, gone := 0, 0
	for _, r := range failing {
		switch r.Status {
		case "added":
			added++
		case "removed":
			gone++
		}
	}
	var s string
	if grew := len(failing) - gone; grew > 0 {
		s = fmt.Sprintf("%d root(s) grew more than %s", grew, l)
		if added > 0 {
			s += fmt.Sprintf(" (%d of them new: not in the base, so grown from 0)", added)
		}
	}
	if gone > 0 {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%d root(s) of the base are gone from the change", gone)
	}
	return s
}

// Failing returns the roots that grew past l.
func (d *Diff) Failing(l Limit) []*RootDiff {
	var out []*RootDiff
	for i := range d.Roots {
		if d.Roots[i].Exceeds(l) {
			out = append(out, &d.Roots[i])
		}
	}
	return out
}

// DiffOptions controls how a Diff is written.
type DiffOptions struct {
	// Lines is how many changed lines to list per root (0: all).
	Lines int
	// Limit, when set, marks the roots past it (the CI gate) and lists
	// them first.
	Limit *Limit
	// PathPrefix is put before file names in GitHub annotations, which
	// want paths from the repository's root (profiles name files from
	// the module's root).
	PathPrefix string
}

// ordered returns the roots, those past the limit first.
func (d *Diff) ordered(o DiffOptions) []*RootDiff {
	var fail, rest []*RootDiff
	for i := range d.Roots {
		r := &d.Roots[i]
		if o.Limit != nil && r.Exceeds(*o.Limit) {
			fail = append(fail, r)
		} else {
			rest = append(rest, r)
		}
	}
	return append(fail, rest...)
}

// shown returns the lines of r to list, those above the noise floor
// (the first o.Lines of them; all for 0), and how many more there are.
func (o DiffOptions) shown(r *RootDiff) ([]LineDiff, int) {
	lines := r.Lines
	if i := slices.IndexFunc(lines, func(l LineDiff) bool { return l.Noise }); i >= 0 {
		lines = lines[:i]
	}
	if o.Lines <= 0 || len(lines) <= o.Lines {
		return lines, 0
	}
	return lines[:o.Lines], len(lines) - o.Lines
}

// noiseNote says how many lines of r the floor n kept from the list and
// their net change; "" when none.
func noiseNote(r *RootDiff, n Noise) string {
	count, net := noiseSummary(r)
	if count == 0 {
		return ""
	}
	return fmt.Sprintf("%d line(s) within the noise floor %s, not listed: net %s", count, n, signed(net))
}

// source is a line's text, with the baseline's when it was edited.
func (l *LineDiff) source() string {
	if l.BaseText == "" {
		return l.Text
	}
	return l.Text + "  (edited; was: " + l.BaseText + ")"
}

// signed formats a byte delta with its sign.
func signed(n int64) string {
	if n > 0 {
		return "+" + Bytes(n)
	}
	return Bytes(n)
}

func (r *RootDiff) headline() string {
	qs := fmt.Sprintf("p=%d", r.ChangeQ)
	if r.BaseQ != r.ChangeQ {
		qs = fmt.Sprintf("p=%d → p=%d", r.BaseQ, r.ChangeQ)
	}
	switch r.Status {
	case "added":
		return fmt.Sprintf("%s: new root, MHWM %s at %s", r.Name, Bytes(r.Change), qs)
	case "removed":
		return fmt.Sprintf("%s: root gone (was %s at %s)", r.Name, Bytes(r.Base), qs)
	}
	s := fmt.Sprintf("%s: %s → %s at %s (%s, %s)", r.Name, Bytes(r.Base), Bytes(r.Change), qs, signed(r.Delta()), r.PercentString())
	if !r.BaseExact || !r.ChangeExact {
		s += " [not exact]"
	}
	return s
}

// WriteText writes d as a plain-text report.
func (d *Diff) WriteText(w io.Writer, o DiffOptions) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "spgo diff: %s → %s\n", d.Base, d.Change)
	for _, n := range d.notes() {
		fmt.Fprintf(ew, "spgo diff: %s\n", n)
	}
	for _, r := range d.ordered(o) {
		mark := ""
		switch {
		case o.Limit == nil:
		case r.Exceeds(*o.Limit):
			mark = "  FAIL: " + r.failNote(*o.Limit)
		case r.overLimit(*o.Limit):
			mark = fmt.Sprintf("  (more than %s, but within the noise floor %s: passes)", o.Limit, d.Noise)
		}
		fmt.Fprintf(ew, "%s%s\n", r.headline(), mark)
		lineDeltas(ew, "  ", r, o.Lines)
		if n := noiseNote(r, d.Noise); n != "" {
			fmt.Fprintf(ew, "  … %s\n", n)
		}
	}
	if o.Limit != nil {
		fmt.Fprintf(ew, "spgo diff: %s\n", d.failSummary(*o.Limit))
	}
	return ew.err
}

// notes are the warnings a report gives first: a side's run ended early,
// and what DiffProfiles found odd in the pair (Diff.Notes).
func (d *Diff) notes() []string {
	var out []string
	if n := d.partialNote(); n != "" {
		out = append(out, n)
	}
	return append(out, d.Notes...)
}

// partialNote warns when a side's run ended early, "" otherwise.
func (d *Diff) partialNote() string {
	switch {
	case d.BasePartial && d.ChangePartial:
		return "both runs ended early (panic, os.Exit, signal): their figures cover only what ran"
	case d.BasePartial:
		return "the baseline's run ended early (panic, os.Exit, signal): its figures cover only what ran"
	case d.ChangePartial:
		return "the change's run ended early (panic, os.Exit, signal): its figures cover only what ran"
	}
	return ""
}

// lineDeltas writes the first n changed lines of r (all for n ≤ 0), one
// per row after indent.
func lineDeltas(w io.Writer, indent string, r *RootDiff, n int) {
	lines, more := DiffOptions{Lines: n}.shown(r)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range lines {
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s → %s\t%s\n", indent, signed(l.Delta()), l.Pos(), l.Func, Bytes(l.Base), Bytes(l.Change), l.source())
	}
	tw.Flush()
	if more > 0 {
		fmt.Fprintf(w, "%s… %d more lines\n", indent, more)
	}
}

// WriteMarkdown writes d as Markdown for a pull-request comment.
func (d *Diff) WriteMarkdown(w io.Writer, o DiffOptions) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "### spgo: worst-case memory (MHWM), %s → %s\n\n", mdEscape(d.Base), mdEscape(d.Change))
	for _, n := range d.notes() {
		fmt.Fprintf(ew, "⚠️ %s\n\n", mdEscape(n))
	}
	if o.Limit != nil {
		if sum := d.failSummary(*o.Limit); len(d.Failing(*o.Limit)) > 0 {
			fmt.Fprintf(ew, "**%s.**\n\n", mdEscape(sum))
		} else {
			fmt.Fprintf(ew, "%s.\n\n", mdEscape(strings.ToUpper(sum[:1])+sum[1:]))
		}
	}
	fmt.Fprintln(ew, "| root | p | baseline | change | Δ | Δ % | |")
	fmt.Fprintln(ew, "|---|---:|---:|---:|---:|---:|---|")
	for _, r := range d.ordered(o) {
		note := map[string]string{"matched": "", "added": "new root", "removed": "root gone"}[r.Status]
		if o.Limit != nil && r.Exceeds(*o.Limit) {
			note = "❌ over " + o.Limit.String()
			if r.Status == "added" {
				note = "❌ new root, over " + o.Limit.String()
			}
		} else if o.Limit != nil && r.overLimit(*o.Limit) {
			note = "within the noise floor " + d.Noise.String()
		} else if !r.BaseExact || !r.ChangeExact {
			note += " (upper bound)"
		}
		qs := strconv.Itoa(r.ChangeQ)
		if r.BaseQ != r.ChangeQ {
			qs = fmt.Sprintf("%d → %d", r.BaseQ, r.ChangeQ)
		}
		fmt.Fprintf(ew, "| `%s` | %s | %s | %s | %s | %s | %s |\n", mdCode(r.Name), qs, Bytes(r.Base), Bytes(r.Change), signed(r.Delta()), r.PercentString(), note)
	}
	for _, r := range d.ordered(o) {
		lines, more := o.shown(r)
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(ew, "\n<details><summary><code>%s</code>: %d line(s) changed</summary>\n\n", htmlEscape(r.Name), len(lines)+more)
		fmt.Fprintln(ew, "| Δ | line | function | baseline | change | source |")
		fmt.Fprintln(ew, "|---:|---|---|---:|---:|---|")
		for _, l := range lines {
			fmt.Fprintf(ew, "| %s | `%s` | `%s` | %s | %s | `%s` |\n", signed(l.Delta()), l.Pos(), l.Func, Bytes(l.Base), Bytes(l.Change), mdCode(l.source()))
		}
		if more > 0 {
			fmt.Fprintf(ew, "\n… %d more lines\n", more)
		}
		if n := noiseNote(r, d.Noise); n != "" {
			fmt.Fprintf(ew, "\n%s\n", mdEscape(n))
		}
		fmt.Fprintln(ew, "\n</details>")
	}
	return ew.err
}

// WriteGitHub writes d as GitHub Actions workflow commands: an error
// annotation on each responsible line of a root past the limit (a
// warning for other growing lines, a notice when no limit is set) and a
// summary line.
func (d *Diff) WriteGitHub(w io.Writer, o DiffOptions) error {
	ew := &errWriter{w: w}
	for _, r := range d.ordered(o) {
		failing := o.Limit != nil && r.Exceeds(*o.Limit)
		level := "notice"
		switch {
		case failing:
			level = "error"
		case o.Limit != nil:
			level = "warning"
		}
		lines, _ := o.shown(r)
		for _, l := range lines {
			if l.Delta() <= 0 || l.Line == 0 || l.File == unattributed {
				continue
			}
			msg := fmt.Sprintf("%s: this line's share of the worst case at p=%d changed by %s (%s → %s); root total %s → %s (%s)",
				r.Name, r.ChangeQ, signed(l.Delta()), Bytes(l.Base), Bytes(l.Change), Bytes(r.Base), Bytes(r.Change), r.PercentString())
			if l.BaseText != "" {
				msg += "; edited line, was: " + l.BaseText
			}
			fmt.Fprintf(ew, "::%s file=%s,line=%d,title=%s::%s\n", level, ghProp(path.Join(o.PathPrefix, l.File)), l.Line, ghProp("spgo MHWM "+signed(l.Delta())), ghData(msg))
		}
		if failing {
			fmt.Fprintf(ew, "::error title=%s::%s\n", ghProp("spgo MHWM gate"), ghData(r.headline()+" — "+strings.TrimPrefix(r.failNote(*o.Limit), "grew ")))
		}
	}
	// The plain summary holds names and source text from the profiles:
	// the runner is told not to read commands in it, with a token no
	// profile can know beforehand (a hash of the text itself).
	var plain strings.Builder
	if err := d.WriteText(&plain, DiffOptions{Lines: 5, Limit: o.Limit}); err != nil {
		return err
	}
	sum := sha256.Sum256([]byte(plain.String()))
	token := "spgo-" + hex.EncodeToString(sum[:12])
	fmt.Fprintf(ew, "::stop-commands::%s\n%s::%s::\n", token, plain.String(), token)
	return ew.err
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command's property value.
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;").Replace(s)
}

// mdCode makes s safe inside a one-backtick code span in a table cell.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", "\\|").Replace(s)
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
