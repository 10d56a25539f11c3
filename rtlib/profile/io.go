package profile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Encode writes p as indented JSON. The encoding is deterministic: maps
// are written with sorted keys.
func Encode(w io.Writer, p *Profile) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("encode profile: %w", err)
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// EncodeRoot returns r encoded as Encode writes it among a profile's
// roots, for EncodeParts: a program that rewrites its profile as roots
// end encodes each finished root once.
func EncodeRoot(r *Root) ([]byte, error) {
	data, err := json.MarshalIndent(r, rootIndent, "  ")
	if err != nil {
		return nil, fmt.Errorf("encode profile root %s: %w", r.Name, err)
	}
	return data, nil
}

// rootIndent is the indentation of a root's lines inside a profile.
const rootIndent = "    "

// emptyRoots is how Encode writes a profile without roots' roots field.
const emptyRoots = "\n  \"roots\": []"

// EncodeParts writes p with the roots encoded by EncodeRoot in place of
// p.Roots, which it ignores: the bytes Encode writes for p with those
// roots.
func EncodeParts(w io.Writer, p *Profile, roots [][]byte) error {
	q := *p
	q.Roots = []Root{}
	data, err := json.MarshalIndent(&q, "", "  ")
	if err != nil {
		return fmt.Errorf("encode profile: %w", err)
	}
	i := bytes.Index(data, []byte(emptyRoots))
	if i < 0 {
		return errors.New("encode profile: no roots field") // the format changed
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(roots)*(len(rootIndent)+2) + sumLen(roots) + 2)
	b.Write(data[:i+len(emptyRoots)-1]) // up to the '[', included
	if len(roots) > 0 {
		b.WriteByte('\n')
		for k, r := range roots {
			b.WriteString(rootIndent)
			b.Write(r)
			if k < len(roots)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("  ")
	}
	b.Write(data[i+len(emptyRoots)-1:]) // from the ']' on
	b.WriteByte('\n')
	_, err = w.Write(b.Bytes())
	return err
}

func sumLen(bs [][]byte) (n int) {
	for _, b := range bs {
		n += len(b)
	}
	return n
}

// WriteFile writes p to path atomically, as WriteBytes does: a reader
// (or a run killed half way) never sees a half-written profile; a
// symbolic link is written through and a device or FIFO in place.
func WriteFile(path string, p *Profile) error {
	return writeEncoded(path, func(w io.Writer) error { return Encode(w, p) })
}

// WriteFileParts is WriteFile for a profile whose roots are encoded
// already (EncodeParts).
func WriteFileParts(path string, p *Profile, roots [][]byte) error {
	return writeEncoded(path, func(w io.Writer) error { return EncodeParts(w, p, roots) })
}

// writeEncoded writes what encode writes to path, as WriteBytes does.
func writeEncoded(path string, encode func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := encode(&buf); err != nil {
		return err
	}
	if err := WriteBytes(path, buf.Bytes()); err != nil {
		return fmt.Errorf("write profile %s: %w", path, err)
	}
	return nil
}

// FormatError is a file that is not a valid spgo.profile/v1 profile.
type FormatError struct {
	Reason string
}

// Error returns the reason, one line.
func (e *FormatError) Error() string { return e.Reason }

// Limits of the values a profile may hold (the engine's own).
const (
	MaxPMax  = 1 << 16 // the largest pmax
	MaxBytes = 1 << 62 // the largest byte figure
)

// upgrade fills in what profiles written before a field existed lack:
// roots without "attributed" get the processor counts their lines'
// mhwm_bytes name, when those figures sum to MHWM exactly.
func (p *Profile) upgrade() {
	for i := range p.Roots {
		r := &p.Roots[i]
		if len(r.Attributed) != 0 || len(r.MHWM) == 0 {
			continue
		}
		seen := map[int]bool{}
		for _, l := range r.Lines {
			for k := range l.MHWMBytes {
				if q, err := strconv.Atoi(k); err == nil && q >= 1 && q <= len(r.MHWM) && strconv.Itoa(q) == k {
					seen[q] = true
				}
			}
		}
		if len(seen) == 0 {
			continue
		}
		qs := slices.Sorted(maps.Keys(seen))
		if qs[0] != 1 { // nothing would stand for q below the first
			continue
		}
		exact := true
		for _, q := range qs {
			total := int64(0)
			for _, l := range r.Lines {
				total += l.MHWMBytes[strconv.Itoa(q)]
			}
			exact = exact && total == r.MHWM[q-1].Bytes
		}
		if exact {
			r.Attributed = qs
		}
	}
}

// formatError returns a *FormatError with reason made one line: control
// characters (a newline in a root's name, say) are escaped.
func formatError(reason string) *FormatError {
	return &FormatError{oneLine(reason)}
}

// oneLine escapes the control characters and line separators of s, as
// strconv.Quote would, leaving the rest as it is.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, needsEscape) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if needsEscape(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(r rune) bool {
	return r < ' ' || r == 0x7f || r == '\u0085' || r == '\u2028' || r == '\u2029'
}

// maxSize is the largest profile Read reads (a var for the tests).
var maxSize int64 = 1 << 30

// ReadFile reads and validates the profile at path.
func ReadFile(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > maxSize {
		return nil, fmt.Errorf("%s: %w", path, formatError(fmt.Sprintf("file larger than %s, not read as an spgo profile", sizeString(maxSize))))
	}
	p, err := Read(f)
	var fe *FormatError
	switch {
	case errors.As(err, &fe):
		return nil, fmt.Errorf("%s: %w", path, err)
	case err != nil:
		if pe, ok := err.(*os.PathError); ok { // names the file already
			return nil, pe
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Read decodes and validates a profile. A file that is not JSON, not an
// spgo profile, of another schema version, truncated, inconsistent or
// larger than 1 GiB gets a *FormatError saying which in one line; an
// error reading r is returned as it is.
func Read(r io.Reader) (*Profile, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, formatError(fmt.Sprintf("file larger than %s, not read as an spgo profile", sizeString(maxSize)))
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, formatError("empty file, not an spgo profile")
	}
	if trimmed[0] != '{' {
		return nil, formatError("not an spgo profile (not a JSON object)")
	}
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(trimmed, &head); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || strings.Contains(err.Error(), "unexpected end") {
			return nil, formatError(fmt.Sprintf("truncated or corrupt profile: %v", err))
		}
		return nil, formatError(fmt.Sprintf("not an spgo profile: %v", err))
	}
	switch {
	case head.Schema == nil:
		return nil, formatError("not an spgo profile (no \"schema\" field)")
	case *head.Schema == Schema:
	case strings.HasPrefix(*head.Schema, "spgo.profile/"):
		return nil, formatError(fmt.Sprintf("profile schema %q is not supported (this spgo reads %s; use a newer spgo)", *head.Schema, Schema))
	default:
		return nil, formatError(fmt.Sprintf("not an spgo profile (schema %q)", *head.Schema))
	}
	var p Profile
	if err := json.Unmarshal(trimmed, &p); err != nil {
		return nil, formatError(fmt.Sprintf("corrupt profile: %v", err))
	}
	p.upgrade()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// sizeString is n bytes in the largest binary unit that divides it.
func sizeString(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n > 0 && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// Validate checks p's invariants, returning a *FormatError naming the
// root and the field of the first one that fails:
//
//   - pmax ≥ 1, threshold ≥ 0; counts and byte totals (serial_peak,
//     work, span, strands, spawns, censuses, census_error_bytes,
//     census_lag_bytes, alloc_bytes, allocs) never negative;
//   - at least one root, no two roots of one name, every name without
//     control characters (and every line's file, function and text);
//   - MHWM_p listed for p = 1 … PMax in order, never decreasing in p and
//     never below zero; none only in threshold mode or in a partial
//     profile (a root that had not ended);
//   - line numbers never negative; an antichain's p within 1 … pmax and
//     its bytes never negative;
//   - an unbounded root, or one whose self-check failed, never exact
//     (and an unbounded one without an interval);
//   - each interval (low and high of an MHWM figure, serial_low and
//     serial_high) absent (both zero) or 0 ≤ low ≤ figure ≤ high ≤ 2^62;
//   - attributed strictly increasing within 1 … pmax, starting with 1
//     when the root has MHWM figures and per-line figures;
//   - per-line keys (mhwm_bytes, mhwm_split) decimal processor counts
//     within 1 … pmax, and listed in attributed when it is not empty;
//     each split's total equal to the line's mhwm_bytes for its key;
//   - the attribution exact: for every q in attributed (when the root
//     has MHWM figures) the lines' mhwm_bytes for q sum to MHWM_q;
//   - heap samples in strand order (non-decreasing, never negative),
//     each sample's line indices strictly increasing within the lines
//     table and their bytes summing to the sample's bytes;
//   - by type (validateTypes): a line's or heap sample's types, when
//     it has them, named, in increasing order, and summing to its
//     figures;
//   - regions (validateRegions): the root's first, each site once,
//     1 ≤ outermost ≤ instances, span within work in both units;
//   - paths (when present) each on a line of the table, sorted by line
//     and callers without repeats, every caller with a function and a
//     file, alloc_bytes and allocs never negative, mhwm_bytes keys among
//     those of the line; every line's alloc_bytes, allocs and mhwm_bytes
//     the sums of its paths';
//   - the threshold answer's p within 1 … pmax and its m ≥ 1;
//   - simulated runs only with a simulation, whose counts are never
//     negative and whose weights are named; each run's policy one of
//     df, bf, ws, go and its p within 1 … 2^16, listed once per (policy,
//     p) in the order df, bf, ws, go, then p ascending; peak_bytes within
//     0 … 2^62; peak_at_wall_ns and makespan_wall_ns never negative, the
//     peak no later than the makespan; the lines listed once per (file,
//     line) and their bytes (which may be negative) summing to
//     peak_bytes; seeds with n ≥ 1, 1 ≤ max_seed ≤ n, 0 ≤ min ≤ median ≤
//     max and max equal to peak_bytes; the curve's times never negative
//     nor decreasing, its bytes within 0 … 2^62 and its highest point
//     equal to peak_bytes.
func (p *Profile) Validate() error {
	bad := func(format string, args ...any) error {
		return formatError("invalid profile: " + fmt.Sprintf(format, args...))
	}
	if p.PMax < 1 || p.PMax > MaxPMax {
		return bad("pmax %d outside 1..%d", p.PMax, MaxPMax)
	}
	if p.Threshold < 0 {
		return bad("threshold %d < 0", p.Threshold)
	}
	if len(p.Roots) == 0 {
		// rtlib writes a profile only once a root has begun.
		return bad("no roots")
	}
	seen := make(map[string]int, len(p.Roots))
	for i := range p.Roots {
		if err := p.validateRoot(i, bad); err != nil {
			return err
		}
		if j, dup := seen[p.Roots[i].Name]; dup {
			return bad("roots %d and %d are both named %s", j, i, p.Roots[i].Name)
		}
		seen[p.Roots[i].Name] = i
	}
	return nil
}

// validateRoot checks root i of p (see Validate).
// checkInterval says what is wrong with the interval low..high around
// figure v, or "": none (both zero), or 0 ≤ low ≤ v ≤ high ≤ MaxBytes.
func checkInterval(low, v, high int64) string {
	switch {
	case low == 0 && high == 0:
		return ""
	case low < 0 || low > v:
		return fmt.Sprintf("low %d outside 0..%d", low, v)
	case high < v || high > MaxBytes:
		return fmt.Sprintf("high %d below %d or above 2^62", high, v)
	}
	return ""
}

func (p *Profile) validateRoot(i int, bad func(string, ...any) error) error {
	r := &p.Roots[i]
	if r.Name == "" {
		return bad("root %d has no name", i)
	}
	if controlChar(r.Name) {
		return bad("root %d: its name %q holds a control character", i, r.Name)
	}
	for _, c := range []struct {
		field string
		n     int64
	}{
		{"serial_peak", r.SerialPeak}, {"work", r.Work}, {"span", r.Span},
		{"strands", r.Strands}, {"spawns", r.Spawns}, {"censuses", r.Censuses},
		{"census_error_bytes", r.CensusError}, {"census_lag_bytes", r.CensusLag},
	} {
		if c.n < 0 {
			return bad("root %s: %s %d < 0", r.Name, c.field, c.n)
		}
	}
	if r.SerialPeak > MaxBytes {
		return bad("root %s: serial_peak %d above 2^62", r.Name, r.SerialPeak)
	}
	if r.Unbounded && (r.Exact || r.SerialHigh != 0) {
		return bad("root %s: unbounded, yet exact or with an interval", r.Name)
	}
	if r.SelfCheckFailed && r.Exact {
		return bad("root %s: its self-check failed, yet exact", r.Name)
	}
	if err := checkInterval(r.SerialLow, r.SerialPeak, r.SerialHigh); err != "" {
		return bad("root %s: serial peak: %s", r.Name, err)
	}
	if len(r.MHWM) != 0 && len(r.MHWM) != p.PMax {
		return bad("root %s: %d MHWM figures for pmax %d", r.Name, len(r.MHWM), p.PMax)
	}
	if len(r.MHWM) == 0 && p.Threshold == 0 && !p.Partial {
		// Only threshold mode, or a root that had not ended when a
		// partial profile was written, has no figures.
		return bad("root %s: no MHWM figures, yet neither threshold mode nor a partial profile", r.Name)
	}
	if a := r.Antichain; a != nil {
		if a.P < 1 || a.P > p.PMax {
			return bad("root %s: antichain p = %d outside 1..pmax %d", r.Name, a.P, p.PMax)
		}
		if a.Bytes < 0 || a.Running < 0 || a.Completed < 0 || a.Suspended < 0 {
			return bad("root %s: antichain with negative bytes", r.Name)
		}
	}
	for j, pt := range r.MHWM {
		if pt.P != j+1 {
			return bad("root %s: MHWM figure %d is for p = %d", r.Name, j, pt.P)
		}
		if pt.Bytes < 0 || j > 0 && pt.Bytes < r.MHWM[j-1].Bytes {
			return bad("root %s: MHWM_%d = %d is below MHWM_%d", r.Name, pt.P, pt.Bytes, j)
		}
		if pt.Bytes > MaxBytes {
			return bad("root %s: MHWM_%d = %d is above 2^62", r.Name, pt.P, pt.Bytes)
		}
		if err := checkInterval(pt.Low, pt.Bytes, pt.High); err != "" {
			return bad("root %s: MHWM_%d: %s", r.Name, pt.P, err)
		}
	}
	if err := validateStacks(r, bad); err != nil {
		return err
	}
	if q := r.Pool; q != nil && (q.Gets < 0 || q.Reused < 0 || q.Reused > q.Gets) {
		return bad("root %s: pool: %d of %d Gets reused", r.Name, q.Reused, q.Gets)
	}
	if t := r.Threshold; t != nil {
		if t.P < 1 || t.P > p.PMax {
			return bad("root %s: threshold p = %d outside 1..pmax %d", r.Name, t.P, p.PMax)
		}
		if t.M < 1 {
			return bad("root %s: threshold m = %d < 1", r.Name, t.M)
		}
	}

	// attributed, and the per-line figures it keys.
	attributed := make(map[string]bool, len(r.Attributed))
	for j, q := range r.Attributed {
		if q < 1 || q > p.PMax {
			return bad("root %s: attributed p = %d outside 1..pmax %d", r.Name, q, p.PMax)
		}
		if j > 0 && q <= r.Attributed[j-1] {
			return bad("root %s: attributed not strictly increasing (%d after %d)", r.Name, q, r.Attributed[j-1])
		}
		attributed[strconv.Itoa(q)] = true
	}
	perLine := false
	for _, l := range r.Lines {
		where := fmt.Sprintf("root %s: %q:%d", r.Name, l.File, l.Line)
		if controlChar(l.File) || controlChar(l.Func) || controlChar(l.Text) {
			return bad("%s: a control character in its file, function or text", where)
		}
		where = fmt.Sprintf("root %s: %s:%d", r.Name, l.File, l.Line)
		if l.Line < 0 {
			return bad("%s: line %d < 0", where, l.Line)
		}
		if l.AllocBytes < 0 {
			return bad("%s: alloc_bytes %d < 0", where, l.AllocBytes)
		}
		if l.Allocs < 0 {
			return bad("%s: allocs %d < 0", where, l.Allocs)
		}
		for _, k := range sortedKeys(l.MHWMBytes) {
			if !p.validKey(k) {
				return bad("%s: mhwm_bytes has figures for p = %q", where, k)
			}
			if len(attributed) != 0 && !attributed[k] {
				return bad("%s: mhwm_bytes has figures for p = %s, not one of attributed", where, k)
			}
			perLine = true
		}
		for _, k := range sortedKeys(l.MHWMSplit) {
			if !p.validKey(k) {
				return bad("%s: mhwm_split has figures for p = %q", where, k)
			}
			if len(attributed) != 0 && !attributed[k] {
				return bad("%s: mhwm_split has figures for p = %s, not one of attributed", where, k)
			}
			s := l.MHWMSplit[k]
			total, ok := sum(s.Running, s.Completed, s.Suspended)
			if !ok || total != l.MHWMBytes[k] {
				return bad("%s: mhwm_split for p = %s totals %s, mhwm_bytes is %d", where, k, sumString(total, ok), l.MHWMBytes[k])
			}
		}
	}
	if len(r.MHWM) != 0 && len(r.Attributed) != 0 {
		if perLine && r.Attributed[0] != 1 {
			return bad("root %s: attributed starts with %d, not 1", r.Name, r.Attributed[0])
		}
		for _, q := range r.Attributed {
			key := strconv.Itoa(q)
			total, ok := int64(0), true
			for _, l := range r.Lines {
				if total, ok = sum(total, l.MHWMBytes[key]); !ok {
					break
				}
			}
			if want := r.MHWM[q-1].Bytes; !ok || total != want {
				return bad("root %s: lines' mhwm_bytes for attributed p = %d sum to %s, MHWM_%d is %d", r.Name, q, sumString(total, ok), q, want)
			}
		}
	}

	if h := r.Heap; h != nil {
		for j, s := range h.Samples {
			if s.Strand < 0 {
				return bad("root %s: heap sample %d: strand %d < 0", r.Name, j, s.Strand)
			}
			if j > 0 && s.Strand < h.Samples[j-1].Strand {
				return bad("root %s: heap sample %d: strand %d before strand %d of sample %d", r.Name, j, s.Strand, h.Samples[j-1].Strand, j-1)
			}
			total, ok := int64(0), true
			for k, lb := range s.Lines {
				if lb.Index < 0 || lb.Index >= len(r.Lines) {
					return bad("root %s: heap sample %d: line index %d outside the %d lines", r.Name, j, lb.Index, len(r.Lines))
				}
				if k > 0 && lb.Index <= s.Lines[k-1].Index {
					return bad("root %s: heap sample %d: line indices not strictly increasing (%d after %d)", r.Name, j, lb.Index, s.Lines[k-1].Index)
				}
				if ok {
					total, ok = sum(total, lb.Bytes)
				}
			}
			if !ok || total != s.Bytes {
				return bad("root %s: heap sample %d: lines' bytes sum to %s, bytes is %d", r.Name, j, sumString(total, ok), s.Bytes)
			}
			if s.Bytes > MaxBytes || s.Bytes < -MaxBytes {
				return bad("root %s: heap sample %d: bytes %d beyond 2^62", r.Name, j, s.Bytes)
			}
		}
	}
	if err := validateTypes(r, bad); err != nil {
		return err
	}
	if err := validateRegions(r, bad); err != nil {
		return err
	}
	if err := p.validatePaths(r, bad); err != nil {
		return err
	}
	return validateSimulation(r, bad)
}

// simPolicies are the simulated policies in the order roots[].simulated
// lists them.
var simPolicies = []string{"df", "bf", "ws", "go"}

// SimPolicies returns the names of the simulated scheduling policies in
// the order a root's Simulated lists them: "df", "bf", "ws", "go".
func SimPolicies() []string { return slices.Clone(simPolicies) }

// validateSimulation checks root r's simulation and its simulated runs
// (see Validate).
func validateSimulation(r *Root, bad func(string, ...any) error) error {
	s := r.Simulation
	if s == nil {
		if len(r.Simulated) != 0 {
			return bad("root %s: %d simulated runs without a simulation", r.Name, len(r.Simulated))
		}
		return nil
	}
	for _, c := range []struct {
		field string
		n     int64
	}{
		{"strands", s.Strands}, {"tasks", s.Tasks}, {"deps", s.Deps}, {"sync_deps", s.SyncDeps},
		{"frees_moved", s.FreesMoved}, {"seeds", int64(s.Seeds)}, {"time_slice_ns", s.TimeSliceNS},
	} {
		if c.n < 0 {
			return bad("root %s: simulation %s %d < 0", r.Name, c.field, c.n)
		}
	}
	if len(r.Simulated) != 0 && s.Weights == "" {
		return bad("root %s: simulation has no weights (what a strand's duration is)", r.Name)
	}
	seen := make(map[simKey]bool, len(r.Simulated))
	for j := range r.Simulated {
		if err := validateSimulated(r, j, seen, bad); err != nil {
			return err
		}
	}
	return nil
}

// simKey identifies a simulated run.
type simKey struct {
	policy string
	p      int
}

// validateSimulated checks r.Simulated[j]; seen holds the runs before
// it.
func validateSimulated(r *Root, j int, seen map[simKey]bool, bad func(string, ...any) error) error {
	s := &r.Simulated[j]
	rank := slices.Index(simPolicies, s.Policy)
	if rank < 0 {
		return bad("root %s: simulated run %d: policy %q is not one of df, bf, ws, go", r.Name, j, s.Policy)
	}
	if s.P < 1 || s.P > MaxPMax {
		return bad("root %s: simulated run %d (%s): p = %d outside 1..%d", r.Name, j, s.Policy, s.P, MaxPMax)
	}
	where := fmt.Sprintf("root %s: simulated %s at p = %d", r.Name, s.Policy, s.P)
	k := simKey{s.Policy, s.P}
	if seen[k] {
		return bad("%s: listed twice", where)
	}
	seen[k] = true
	if j > 0 {
		prev := &r.Simulated[j-1]
		if pr := slices.Index(simPolicies, prev.Policy); pr > rank || pr == rank && prev.P > s.P {
			return bad("%s: listed after %s at p = %d (the order is df, bf, ws, go, then p)", where, prev.Policy, prev.P)
		}
	}
	if s.PeakBytes < 0 || s.PeakBytes > MaxBytes {
		return bad("%s: peak_bytes %d outside 0..2^62", where, s.PeakBytes)
	}
	if s.PeakAtWallNS < 0 {
		return bad("%s: peak_at_wall_ns %d < 0", where, s.PeakAtWallNS)
	}
	if s.MakespanWallNS < 0 {
		return bad("%s: makespan_wall_ns %d < 0", where, s.MakespanWallNS)
	}
	if s.PeakAtWallNS > s.MakespanWallNS {
		return bad("%s: peak_at_wall_ns %d after makespan_wall_ns %d", where, s.PeakAtWallNS, s.MakespanWallNS)
	}
	if err := validateSimLines(s, where, bad); err != nil {
		return err
	}
	if err := validateSimSeeds(s, where, bad); err != nil {
		return err
	}
	return validateSimCurve(s, where, bad)
}

// validateSimLines checks that a simulated run's lines are listed once
// each and sum to its peak.
func validateSimLines(s *Simulated, where string, bad func(string, ...any) error) error {
	type pos struct {
		file string
		line int
	}
	seen := make(map[pos]bool, len(s.Lines))
	total, ok := int64(0), true
	for _, l := range s.Lines {
		if seen[pos{l.File, l.Line}] {
			return bad("%s: line %s:%d listed twice", where, l.File, l.Line)
		}
		seen[pos{l.File, l.Line}] = true
		if ok {
			total, ok = sum(total, l.Bytes)
		}
	}
	if !ok || total != s.PeakBytes {
		return bad("%s: lines' bytes sum to %s, peak_bytes is %d", where, sumString(total, ok), s.PeakBytes)
	}
	return nil
}

// validateSimSeeds checks a seeded run's summary over its seeds.
func validateSimSeeds(s *Simulated, where string, bad func(string, ...any) error) error {
	sd := s.Seeds
	switch {
	case sd == nil:
		return nil
	case sd.N < 1:
		return bad("%s: seeds n = %d < 1", where, sd.N)
	case sd.MaxSeed < 1 || sd.MaxSeed > uint64(sd.N):
		return bad("%s: seeds max_seed %d outside 1..n %d", where, sd.MaxSeed, sd.N)
	case sd.Min < 0 || sd.Min > sd.Median || sd.Median > sd.Max:
		return bad("%s: seeds min %d, median %d, max %d: not 0 ≤ min ≤ median ≤ max", where, sd.Min, sd.Median, sd.Max)
	case sd.Max != s.PeakBytes:
		return bad("%s: seeds max %d, peak_bytes is %d", where, sd.Max, s.PeakBytes)
	}
	return nil
}

// validateSimCurve checks a simulated run's memory over time: in time
// order, never negative, its highest point the peak.
func validateSimCurve(s *Simulated, where string, bad func(string, ...any) error) error {
	hi := int64(0)
	for j, pt := range s.Curve {
		if pt.WallNS < 0 {
			return bad("%s: curve point %d: wall_ns %d < 0", where, j, pt.WallNS)
		}
		if j > 0 && pt.WallNS < s.Curve[j-1].WallNS {
			return bad("%s: curve point %d: wall_ns %d before wall_ns %d of point %d", where, j, pt.WallNS, s.Curve[j-1].WallNS, j-1)
		}
		if pt.Bytes < 0 || pt.Bytes > MaxBytes {
			return bad("%s: curve point %d: bytes %d outside 0..2^62", where, j, pt.Bytes)
		}
		hi = max(hi, pt.Bytes)
	}
	if len(s.Curve) != 0 && hi != s.PeakBytes {
		return bad("%s: curve's highest point %d, peak_bytes is %d", where, hi, s.PeakBytes)
	}
	return nil
}

// validKey reports whether k is a processor count of p written as
// strconv.Itoa writes it.
func (p *Profile) validKey(k string) bool {
	q, err := strconv.Atoi(k)
	return err == nil && q >= 1 && q <= p.PMax && strconv.Itoa(q) == k
}

// sortedKeys returns m's keys in order, so that Validate reports the
// same error every time.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// sum adds ns, and false if the sum overflows an int64.
func sum(ns ...int64) (int64, bool) {
	var t int64
	for _, n := range ns {
		s := t + n
		if (n > 0 && s < t) || (n < 0 && s > t) {
			return 0, false
		}
		t = s
	}
	return t, true
}

// sumString is a total sum returned, or "beyond the int64 range".
func sumString(total int64, ok bool) string {
	if !ok {
		return "beyond the int64 range"
	}
	return strconv.FormatInt(total, 10)
}

// controlChar reports whether s holds a control character other than a
// tab: no name, path or line of source rtlib writes has one, and in a
// report's output a newline or carriage return could start a line of the
// reader's choosing (a GitHub Actions workflow command).
func controlChar(s string) bool {
	for _, c := range s {
		if c != '\t' && (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029) {
			return true
		}
	}
	return false
}

// validateStacks checks r.Stacks: one total per heap figure, none below
// it, intervals in order, never exact when the heap is not.
func validateStacks(r *Root, bad func(string, ...any) error) error {
	st := r.Stacks
	if st == nil {
		return nil
	}
	for _, c := range []struct {
		field string
		n     int64
	}{
		{"start_bytes", st.StartBytes}, {"goroutines", st.Goroutines}, {"grown", st.Grown},
		{"grown_bytes", st.GrownBytes}, {"serial_peak", st.SerialPeak},
	} {
		if c.n < 0 || c.n > MaxBytes {
			return bad("root %s: stacks: %s %d outside 0..2^62", r.Name, c.field, c.n)
		}
	}
	if st.Grown > st.Goroutines {
		return bad("root %s: stacks: %d grown of %d goroutines", r.Name, st.Grown, st.Goroutines)
	}
	if st.Exact && !r.Exact {
		return bad("root %s: stacks exact, yet the heap figures are not", r.Name)
	}
	if len(st.Total) != len(r.MHWM) {
		return bad("root %s: stacks: %d total figures for %d MHWM figures", r.Name, len(st.Total), len(r.MHWM))
	}
	if st.SerialPeak < r.SerialPeak {
		return bad("root %s: stacks: serial peak %d below the heap's %d", r.Name, st.SerialPeak, r.SerialPeak)
	}
	if err := checkInterval(st.SerialLow, st.SerialPeak, st.SerialHigh); err != "" {
		return bad("root %s: stacks: serial peak: %s", r.Name, err)
	}
	for j, pt := range st.Total {
		if pt.P != j+1 {
			return bad("root %s: stacks: total figure %d is for p = %d", r.Name, j, pt.P)
		}
		if pt.Bytes < r.MHWM[j].Bytes || pt.Bytes > MaxBytes || j > 0 && pt.Bytes < st.Total[j-1].Bytes {
			return bad("root %s: stacks: total_%d = %d is below the heap's or the total for p-1, or above 2^62", r.Name, pt.P, pt.Bytes)
		}
		if err := checkInterval(pt.Low, pt.Bytes, pt.High); err != "" {
			return bad("root %s: stacks: total_%d: %s", r.Name, pt.P, err)
		}
	}
	return nil
}
