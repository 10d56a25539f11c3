package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// sitesPerLine is how many site entries a strand or more record holds; a
// strand with more sites continues on more records, so that no line
// approaches MaxLine.
const sitesPerLine = 512

// Writer streams a trace file. It holds O(1) records: each record is
// formatted into a bufio.Writer as soon as it is given. It checks what it
// can check locally (a strand's own weights, record order against
// BeginRoot and EndRoot); Read checks the rest. The first error is sticky:
// every later call returns it.
type Writer struct {
	bw     *bufio.Writer
	buf    []byte // one line being formatted
	err    error
	inRoot bool
	root   string
}

// NewWriter returns a Writer that writes a trace to w, starting with the
// header line.
func NewWriter(w io.Writer) *Writer {
	tw := &Writer{bw: bufio.NewWriter(w)}
	tw.line(append(tw.buf[:0], Header...))
	return tw
}

// line writes b and a newline.
func (w *Writer) line(b []byte) error {
	if w.err != nil {
		return w.err
	}
	b = append(b, '\n')
	if _, err := w.bw.Write(b); err != nil {
		w.err = fmt.Errorf("trace: write: %w", err)
	}
	w.buf = b[:0]
	return w.err
}

func (w *Writer) fail(format string, args ...any) error {
	if w.err == nil {
		w.err = fmt.Errorf("trace: "+format, args...)
	}
	return w.err
}

// quote appends name quoted, or fails if it is too long.
func (w *Writer) quote(b []byte, what, name string) ([]byte, error) {
	n := len(b)
	b = strconv.AppendQuote(b, name)
	if len(b)-n > MaxName {
		return b, w.fail("%s name of %d bytes is longer than %d quoted", what, len(name), MaxName)
	}
	return b, nil
}

// Site names site id; it may be called anywhere, once per site (again
// only with the same name).
func (w *Writer) Site(id int32, name string) error {
	if w.err != nil {
		return w.err
	}
	if id < 0 {
		return w.fail("site %d: negative ID", id)
	}
	b := strconv.AppendInt(append(w.buf[:0], "site "...), int64(id), 10)
	b, err := w.quote(append(b, ' '), "site", name)
	if err != nil {
		return err
	}
	return w.line(b)
}

// BeginRoot starts the graph of the root called name.
func (w *Writer) BeginRoot(name string) error {
	if w.err != nil {
		return w.err
	}
	if w.inRoot {
		return w.fail("root %q begun inside root %q", name, w.root)
	}
	b, err := w.quote(append(w.buf[:0], "root "...), "root", name)
	if err != nil {
		return err
	}
	w.inRoot, w.root = true, name
	return w.line(b)
}

func (w *Writer) needRoot(what string) error {
	if w.err != nil {
		return w.err
	}
	if !w.inRoot {
		return w.fail("%s outside a root", what)
	}
	return nil
}

// Task records task t; Parent is -1 for the root's task.
func (w *Writer) Task(t Task) error {
	if err := w.needRoot("task"); err != nil {
		return err
	}
	if t.ID < 0 || t.Parent < -1 || t.Site < 0 {
		return w.fail("task %d: negative ID, parent or site", t.ID)
	}
	b := append(w.buf[:0], "task "...)
	b = strconv.AppendInt(b, int64(t.ID), 10)
	b = strconv.AppendInt(append(b, ' '), int64(t.Parent), 10)
	b = strconv.AppendInt(append(b, ' '), int64(t.Site), 10)
	return w.line(b)
}

// Strand records strand s, normally when it ends.
func (w *Writer) Strand(s Strand) error {
	if err := w.needRoot("strand"); err != nil {
		return err
	}
	if msg := checkStrand(&s); msg != "" {
		return w.fail("%s", msg)
	}
	b := append(w.buf[:0], "strand "...)
	for i, v := range [...]int64{int64(s.ID), int64(s.Task), s.Work, s.Net, s.Peak} {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	for chunk := range slices.Chunk(s.Sites, sitesPerLine) {
		if b == nil { // a continuation line
			b = append(w.buf[:0], "more"...)
		}
		for _, sb := range chunk {
			b = strconv.AppendInt(append(b, ' '), int64(sb.Site), 10)
			b = strconv.AppendInt(append(b, ':'), sb.Net, 10)
			b = strconv.AppendInt(append(b, ':'), sb.AtPeak, 10)
		}
		if err := w.line(b); err != nil {
			return err
		}
		b = nil
	}
	if b != nil {
		return w.line(b)
	}
	return nil
}

// Dep records dependency d, before or after the records of its strands.
func (w *Writer) Dep(d Dep) error {
	if err := w.needRoot("dep"); err != nil {
		return err
	}
	if !d.Kind.Valid() {
		return w.fail("dep %d→%d: invalid kind %d", d.From, d.To, uint8(d.Kind))
	}
	if d.From < 0 || d.To < 0 {
		return w.fail("dep %d→%d: negative strand", d.From, d.To)
	}
	b := append(w.buf[:0], "dep "...)
	b = strconv.AppendInt(b, int64(d.From), 10)
	b = strconv.AppendInt(append(b, ' '), int64(d.To), 10)
	b = append(append(b, ' '), d.Kind.String()...)
	return w.line(b)
}

// EndRoot ends the root begun by BeginRoot.
func (w *Writer) EndRoot() error {
	if err := w.needRoot("end"); err != nil {
		return err
	}
	w.inRoot = false
	return w.line(append(w.buf[:0], "end"...))
}

// WriteGraph writes g as one root: its site names (sorted), then its
// tasks, strands and deps in slice order. The strands' weights are
// written as they are, with g's frees placed in them: g's census and free
// records are not written.
func (w *Writer) WriteGraph(g *Graph) error {
	ids := make([]int32, 0, len(g.Sites))
	for id := range g.Sites {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := w.Site(id, g.Sites[id]); err != nil {
			return err
		}
	}
	if err := w.BeginRoot(g.Name); err != nil {
		return err
	}
	for _, t := range g.Tasks {
		if err := w.Task(t); err != nil {
			return err
		}
	}
	for _, s := range g.Strands {
		if err := w.Strand(s); err != nil {
			return err
		}
	}
	for _, d := range g.Deps {
		if err := w.Dep(d); err != nil {
			return err
		}
	}
	return w.EndRoot()
}

// Flush writes buffered records to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("trace: write: %w", err)
	}
	return w.err
}

// errClosed is the sticky error of a closed Writer.
var errClosed = errors.New("trace: writer closed")

// Close flushes the Writer and reports a root left open (the file would
// read as truncated). It does not close the underlying writer; further
// calls return an error.
func (w *Writer) Close() error {
	err := w.Flush()
	if err == nil && w.inRoot {
		err = fmt.Errorf("trace: close: root %q not ended", w.root)
	}
	if w.err == nil {
		w.err = errClosed
	}
	return err
}

// strandsPerLine is how many strands a census record lists; a longer
// list continues on census records with the same ID.
const strandsPerLine = 4096

// Census records census id (see Census); a list of strands longer than a
// line continues on more census records with the same id and cut.
func (w *Writer) Census(id int32, c Census) error {
	if err := w.needRoot("census"); err != nil {
		return err
	}
	if id < 0 || c.Cut < -1 {
		return w.fail("census %d: negative ID or cut strand", id)
	}
	strands := c.Ran
	for first := true; first || len(strands) > 0; first = false {
		n := min(len(strands), strandsPerLine)
		b := append(w.buf[:0], "census "...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = strconv.AppendInt(append(b, ' '), int64(c.Cut), 10)
		for _, s := range strands[:n] {
			if s < 0 {
				return w.fail("census %d: negative strand %d", id, s)
			}
			b = strconv.AppendInt(append(b, ' '), int64(s), 10)
		}
		if err := w.line(b); err != nil {
			return err
		}
		strands = strands[n:]
	}
	return nil
}

// Free records a death left to the reader to place (see Free; Placed is
// not written).
func (w *Writer) Free(f Free) error {
	if err := w.needRoot("free"); err != nil {
		return err
	}
	if f.At < 0 || f.Site < 0 || f.Census < 0 || f.Alloc < -1 || f.Bytes <= 0 || f.Bytes > MaxBytes {
		return w.fail("free of %d bytes at strand %d: a field out of range", f.Bytes, f.At)
	}
	b := append(w.buf[:0], "free "...)
	for i, v := range [...]int64{int64(f.At), int64(f.Site), f.Bytes, int64(f.Census), int64(f.Alloc)} {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return w.line(b)
}
