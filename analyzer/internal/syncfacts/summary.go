package syncfacts

import (
	"fmt"
	"slices"
	"strings"
)

// Summary is what a function does to synchronisation, with what it
// calls (but not what it starts as goroutines). It is exported as a fact
// on the function's *types.Func.
type Summary struct {
	// Ops holds the operations of the function and those of Deep of
	// everything it calls; Own those it makes itself (its instructions
	// and its calls of primitives), not through other functions.
	Ops, Own Ops
	// Fields holds, for a method, the operations made through fields of
	// its receiver, by dotted path ("wg", "srv.done"), sorted by path (a
	// slice, not a map: a fact's encoding must be deterministic).
	Fields []FieldOps
	// Sent holds the element types (types.TypeString, full package
	// paths) of the channels sent on or closed.
	Sent []string
}

// FieldOps is the set of operations made through one receiver field.
type FieldOps struct {
	Path string
	Ops  Ops
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

// String renders the summary, for tests and debugging.
func (s *Summary) String() string {
	var b strings.Builder
	b.WriteString(s.Ops.String())
	if s.Own != 0 {
		fmt.Fprintf(&b, " own:%s", s.Own)
	}
	for _, f := range s.Fields {
		fmt.Fprintf(&b, " %s:%s", f.Path, f.Ops)
	}
	if len(s.Sent) > 0 {
		fmt.Fprintf(&b, " sent:%s", strings.Join(s.Sent, ","))
	}
	return b.String()
}

// worthExporting reports whether the summary tells a caller in another
// package anything spvet asks: an operation passed on to callers (Deep),
// a channel element type sent, or a lock of its own (a loop that calls it
// is throttled). An atomic write, a cancel or a Cond signal alone is not.
func (s *Summary) worthExporting() bool {
	return s.Ops&Deep != 0 || len(s.Sent) > 0 || s.Own&Lock != 0
}

// add records ops the function makes itself, through the receiver field
// path ("" for the receiver itself, "-" for none).
func (s *Summary) add(ops Ops, path string) {
	s.Own |= ops
	s.addField(ops, path)
}

// addField records ops made through the receiver field path, by the
// function or a callee.
func (s *Summary) addField(ops Ops, path string) {
	s.Ops |= ops
	if path == "" || path == "-" {
		return
	}
	i, found := slices.BinarySearchFunc(s.Fields, path, func(f FieldOps, p string) int { return strings.Compare(f.Path, p) })
	if !found {
		s.Fields = slices.Insert(s.Fields, i, FieldOps{Path: path})
	}
	s.Fields[i].Ops |= ops
}

// merge adds a callee's summary; prefix, if not "", is the receiver path
// the callee was called on ("" for the receiver itself, "-" for a value
// that is not the receiver's).
func (s *Summary) merge(c *Summary, prefix string) {
	s.Ops |= c.Ops & Deep
	s.Sent = union(s.Sent, c.Sent)
	if prefix == "-" {
		return
	}
	for _, f := range c.Fields {
		if f.Ops&Deep == 0 {
			continue
		}
		p := f.Path
		if prefix != "" {
			p = prefix + "." + p
		}
		s.addField(f.Ops&Deep, p)
	}
}

// union adds the strings of b missing from a, keeping a sorted.
func union(a, b []string) []string {
	for _, x := range b {
		if i, found := slices.BinarySearch(a, x); !found {
			a = slices.Insert(a, i, x)
		}
	}
	return a
}

// Has reports whether the summary records any of ops.
func (s *Summary) Has(ops Ops) bool { return s != nil && s.Ops&ops != 0 }

// HasOwn reports whether the function makes any of ops itself.
func (s *Summary) HasOwn(ops Ops) bool { return s != nil && s.Own&ops != 0 }

// FieldList returns the receiver field operations, nil for a nil summary.
func (s *Summary) FieldList() []FieldOps {
	if s == nil {
		return nil
	}
	return s.Fields
}

// FieldsWith returns the receiver field paths with any of ops.
func (s *Summary) FieldsWith(ops Ops) []string {
	if s == nil {
		return nil
	}
	var ps []string
	for _, f := range s.Fields {
		if f.Ops&ops != 0 {
			ps = append(ps, f.Path)
		}
	}
	return ps
}
