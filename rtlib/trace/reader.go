package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"strconv"
	"strings"
)

// FormatError is a file that is not a valid trace: Line is the 1-based
// line the problem is on (0 when it concerns the whole file).
type FormatError struct {
	Line   int    // 1-based; 0 for the whole file
	Reason string // one line
}

// Error returns "trace: line N: reason", one line.
func (e *FormatError) Error() string {
	if e.Line == 0 {
		return "trace: " + e.Reason
	}
	return fmt.Sprintf("trace: line %d: %s", e.Line, e.Reason)
}

// Read reads a trace file and returns its roots' graphs, each validated
// (Graph.Validate). Errors are *FormatError values naming the line and
// the reason; lines longer than MaxLine are refused.
func Read(r io.Reader) ([]*Graph, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	rd := &reader{sites: map[int32]string{}, siteLine: map[int32]int{}}
	for sc.Scan() {
		rd.line++
		if err := rd.record(sc.Bytes()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &FormatError{Line: rd.line + 1, Reason: fmt.Sprintf("line longer than %d bytes", MaxLine)}
		}
		return nil, &FormatError{Line: rd.line + 1, Reason: fmt.Sprintf("read: %v", err)}
	}
	if rd.line == 0 {
		return nil, &FormatError{Reason: "empty file: no " + Header + " header"}
	}
	if rd.pending {
		if err := rd.endStrand(); err != nil {
			return nil, err
		}
	}
	if rd.g != nil {
		return nil, &FormatError{Line: rd.rootLine, Reason: fmt.Sprintf("truncated: root %q not ended", rd.g.Name)}
	}
	return rd.graphs, nil
}

// reader is the state of Read between lines.
type reader struct {
	line     int
	sites    map[int32]string
	siteLine map[int32]int
	graphs   []*Graph

	// The root being read, nil outside one.
	g           *Graph
	rootLine    int
	strandAt    map[int32]int // strand ID → line
	taskLines   []int         // line of g.Tasks[i]
	depLines    []int         // line of g.Deps[i]
	freeLines   []int         // line of g.Frees[i]
	censusLines []int         // first line of g.Censuses[i]
	pending     bool          // the last record was a strand or more record: more may follow
	bytes       int64         // Σ peak + Σ |net| so far
	work        int64
}

func (rd *reader) errorf(format string, args ...any) error {
	return &FormatError{Line: rd.line, Reason: fmt.Sprintf(format, args...)}
}

// record reads one line.
func (rd *reader) record(text []byte) error {
	if rd.line == 1 {
		if h := string(bytes.TrimRight(text, " \t\r")); h != Header {
			if strings.HasPrefix(h, "spgo.trace/") {
				return rd.errorf("unsupported version %q, want %s", clip(h), Header)
			}
			return rd.errorf("not a trace file: first line %q, want %s", clip(h), Header)
		}
		return nil
	}
	text = bytes.TrimSpace(text)
	if len(text) == 0 || text[0] == '#' {
		return nil
	}
	word, rest, _ := bytes.Cut(text, []byte{' '})
	if string(word) != "more" && rd.pending {
		rd.pending = false
		if err := rd.endStrand(); err != nil {
			return err
		}
	}
	switch string(word) {
	case "site":
		return rd.site(rest)
	case "root":
		return rd.beginRoot(rest)
	}
	if rd.g == nil {
		switch string(word) {
		case "task", "strand", "more", "dep", "census", "free", "end":
			return rd.errorf("%s record outside a root", word)
		}
		return rd.errorf("unknown record %q", clip(string(word)))
	}
	f := strings.Fields(string(rest))
	switch string(word) {
	case "task":
		return rd.task(f)
	case "strand":
		return rd.strand(f)
	case "more":
		return rd.more(f)
	case "dep":
		return rd.dep(f)
	case "census":
		return rd.census(f)
	case "free":
		return rd.free(f)
	case "end":
		if len(f) != 0 {
			return rd.errorf("end takes no arguments")
		}
		return rd.endRoot()
	}
	return rd.errorf("unknown record %q", clip(string(word)))
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// name parses a quoted name.
func (rd *reader) name(what string, b []byte) (string, error) {
	b = bytes.TrimSpace(b)
	if len(b) > MaxName {
		return "", rd.errorf("%s name longer than %d bytes quoted", what, MaxName)
	}
	if len(b) == 0 || b[0] != '"' {
		return "", rd.errorf("%s name must be a double-quoted string", what)
	}
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return "", rd.errorf("%s name: bad quoted string", what)
	}
	if len(strconv.Quote(s)) > MaxName { // what a Writer would refuse
		return "", rd.errorf("%s name longer than %d bytes quoted", what, MaxName)
	}
	return s, nil
}

func (rd *reader) int32(what, s string, lo int64) (int32, error) {
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil || v < lo {
		return 0, rd.errorf("bad %s %q", what, clip(s))
	}
	return int32(v), nil
}

func (rd *reader) int64(what, s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, rd.errorf("bad %s %q", what, clip(s))
	}
	return v, nil
}

func (rd *reader) site(rest []byte) error {
	num, rest, _ := bytes.Cut(bytes.TrimSpace(rest), []byte{' '})
	id, err := rd.int32("site", string(num), 0)
	if err != nil {
		return err
	}
	name, err := rd.name("site", rest)
	if err != nil {
		return err
	}
	if old, ok := rd.sites[id]; ok && old != name {
		return rd.errorf("site %d renamed: %q, named %q on line %d", id, clip(name), clip(old), rd.siteLine[id])
	}
	rd.sites[id] = name
	rd.siteLine[id] = rd.line
	return nil
}

func (rd *reader) beginRoot(rest []byte) error {
	if rd.g != nil {
		return rd.errorf("root begins inside root %q (line %d), which has no end", rd.g.Name, rd.rootLine)
	}
	name, err := rd.name("root", rest)
	if err != nil {
		return err
	}
	rd.g = &Graph{Name: name}
	rd.rootLine = rd.line
	rd.strandAt = map[int32]int{}
	rd.taskLines, rd.depLines, rd.freeLines, rd.censusLines = nil, nil, nil, nil
	rd.bytes, rd.work = 0, 0
	return nil
}

func (rd *reader) task(f []string) error {
	if len(f) != 3 {
		return rd.errorf("task takes 3 numbers (ID, parent, site), got %d", len(f))
	}
	var t Task
	var err error
	if t.ID, err = rd.int32("task ID", f[0], 0); err != nil {
		return err
	}
	if t.Parent, err = rd.int32("parent task", f[1], -1); err != nil {
		return err
	}
	if t.Site, err = rd.int32("site", f[2], 0); err != nil {
		return err
	}
	rd.g.Tasks = append(rd.g.Tasks, t)
	rd.taskLines = append(rd.taskLines, rd.line)
	return nil
}

func (rd *reader) strand(f []string) error {
	if len(f) < 5 {
		return rd.errorf("strand takes ID, task, work, net, peak and sites, got %d fields", len(f))
	}
	var s Strand
	var err error
	if s.ID, err = rd.int32("strand ID", f[0], 0); err != nil {
		return err
	}
	if l, dup := rd.strandAt[s.ID]; dup {
		return rd.errorf("duplicate strand %d (first on line %d)", s.ID, l)
	}
	if s.Task, err = rd.int32("task", f[1], 0); err != nil {
		return err
	}
	for i, p := range []*int64{&s.Work, &s.Net, &s.Peak} {
		if *p, err = rd.int64([]string{"work", "net", "peak"}[i], f[2+i]); err != nil {
			return err
		}
	}
	rd.strandAt[s.ID] = rd.line
	rd.g.Strands = append(rd.g.Strands, s)
	rd.pending = true
	return rd.more(f[5:])
}

// more appends site entries to the strand just read.
func (rd *reader) more(f []string) error {
	if !rd.pending {
		return rd.errorf("more record not after a strand record")
	}
	s := &rd.g.Strands[len(rd.g.Strands)-1]
	for _, e := range f {
		a, rest, ok1 := strings.Cut(e, ":")
		b, c, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 {
			return rd.errorf("strand %d: site entry %q is not SITE:NET:ATPEAK", s.ID, clip(e))
		}
		var sb SiteBytes
		var err error
		if sb.Site, err = rd.int32("site", a, 0); err != nil {
			return err
		}
		if sb.Net, err = rd.int64("site net", b); err != nil {
			return err
		}
		if sb.AtPeak, err = rd.int64("site share at peak", c); err != nil {
			return err
		}
		s.Sites = append(s.Sites, sb)
	}
	return nil
}

// endStrand checks the strand just completed (with its more records).
func (rd *reader) endStrand() error {
	s := &rd.g.Strands[len(rd.g.Strands)-1]
	at := rd.strandAt[s.ID]
	if msg := checkStrand(s); msg != "" {
		return &FormatError{Line: at, Reason: msg}
	}
	rd.bytes += s.Peak + max(s.Net, -s.Net)
	rd.work += s.Work
	if rd.bytes > MaxBytes {
		return &FormatError{Line: at, Reason: fmt.Sprintf("strand %d: the root's Σ peak + Σ |net| exceeds 2^62", s.ID)}
	}
	if rd.work > MaxWork {
		return &FormatError{Line: at, Reason: fmt.Sprintf("strand %d: the root's Σ work exceeds 2^62", s.ID)}
	}
	return nil
}

func (rd *reader) dep(f []string) error {
	if len(f) != 3 {
		return rd.errorf("dep takes from, to and kind, got %d fields", len(f))
	}
	var d Dep
	var err error
	if d.From, err = rd.int32("strand", f[0], 0); err != nil {
		return err
	}
	if d.To, err = rd.int32("strand", f[1], 0); err != nil {
		return err
	}
	if d.Kind, err = ParseDepKind(f[2]); err != nil {
		return rd.errorf("unknown dep kind %q", clip(f[2]))
	}
	rd.g.Deps = append(rd.g.Deps, d)
	rd.depLines = append(rd.depLines, rd.line)
	return nil
}

// endRoot sorts the strands by ID, validates the graph and maps a problem
// to the line of the record it concerns.
func (rd *reader) endRoot() error {
	g := rd.g
	n := len(g.Strands)
	ord := make([]Strand, n)
	for _, s := range g.Strands {
		if int(s.ID) >= n { // IDs are distinct: one below n is missing
			for i := range n {
				if _, ok := rd.strandAt[int32(i)]; !ok {
					return rd.errorf("root %q: missing strand %d (%d strands, but strand %d on line %d)", g.Name, i, n, s.ID, rd.strandAt[s.ID])
				}
			}
		}
		ord[s.ID] = s
	}
	g.Strands = ord
	g.Sites = maps.Clone(rd.sites)
	if p := g.check(); p != nil {
		line := rd.line
		switch p.what {
		case inStrand:
			line = rd.strandAt[int32(p.idx)]
		case inTask:
			line = rd.taskLines[p.idx]
		case inDep:
			line = rd.depLines[p.idx]
		}
		return &FormatError{Line: line, Reason: fmt.Sprintf("root %q: %s", g.Name, p.msg)}
	}
	if census, k, msg := g.checkFrees(); msg != "" {
		line := rd.freeLines
		if census {
			line = rd.censusLines
		}
		return &FormatError{Line: line[k], Reason: fmt.Sprintf("root %q: %s", g.Name, msg)}
	}
	g.placeFrees()
	g.mergeCuts()
	rd.graphs = append(rd.graphs, g)
	rd.g = nil
	return nil
}

func (rd *reader) census(f []string) error {
	if len(f) < 2 {
		return rd.errorf("census takes an ID, a cut strand and strands")
	}
	id, err := rd.int32("census ID", f[0], 0)
	if err != nil {
		return err
	}
	cut, err := rd.int32("cut strand", f[1], -1)
	if err != nil {
		return err
	}
	switch n := len(rd.g.Censuses); {
	case int(id) > n:
		return rd.errorf("census %d before census %d", id, n)
	case int(id) == n:
		rd.g.Censuses = append(rd.g.Censuses, Census{Cut: cut})
		rd.censusLines = append(rd.censusLines, rd.line)
	case rd.g.Censuses[id].Cut != cut:
		return rd.errorf("census %d continued with cut strand %d, was %d", id, cut, rd.g.Censuses[id].Cut)
	}
	c := &rd.g.Censuses[id]
	for _, x := range f[2:] {
		s, err := rd.int32("strand", x, 0)
		if err != nil {
			return err
		}
		c.Ran = append(c.Ran, s)
	}
	return nil
}

func (rd *reader) free(f []string) error {
	if len(f) != 5 {
		return rd.errorf("free takes strand, site, bytes, census and allocating strand, got %d fields", len(f))
	}
	var fr Free
	var err error
	if fr.At, err = rd.int32("strand", f[0], 0); err != nil {
		return err
	}
	if fr.Site, err = rd.int32("site", f[1], 0); err != nil {
		return err
	}
	if fr.Bytes, err = rd.int64("bytes", f[2]); err != nil {
		return err
	}
	if fr.Bytes <= 0 || fr.Bytes > MaxBytes {
		return rd.errorf("free of %d bytes: want 1..2^62", fr.Bytes)
	}
	if fr.Census, err = rd.int32("census", f[3], 0); err != nil {
		return err
	}
	if fr.Alloc, err = rd.int32("allocating strand", f[4], -1); err != nil {
		return err
	}
	if rd.bytes += 2 * fr.Bytes; rd.bytes > MaxBytes {
		return rd.errorf("free of %d bytes: the root's Σ peak + Σ |net| exceeds 2^62", fr.Bytes)
	}
	rd.g.Frees = append(rd.g.Frees, fr)
	rd.freeLines = append(rd.freeLines, rd.line)
	return nil
}
