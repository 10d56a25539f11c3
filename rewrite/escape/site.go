package escape

import "fmt"

// Kind is what the compiler decided for an allocation site.
type Kind int

// The kinds are ordered from the weakest to the strongest decision; when a
// site has several decisions (copies of it inlined elsewhere, test and
// non-test builds), the strongest one wins.
const (
	// Stack is "X does not escape": the value may live in the stack frame.
	// For variable-size make, append and string operations the compiler
	// still allocates on the heap when the value outgrows a small stack
	// buffer; see the package documentation.
	Stack Kind = iota + 1
	// Heap is "X escapes to heap": the expression allocates on the heap.
	Heap
	// Moved is "moved to heap: x": the variable x is allocated on the heap.
	Moved
)

// String returns the name of k.
func (k Kind) String() string {
	switch k {
	case Stack:
		return "stack"
	case Heap:
		return "heap"
	case Moved:
		return "moved"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Escapes reports whether k puts the value on the heap (Heap or Moved).
func (k Kind) Escapes() bool { return k == Heap || k == Moved }

// Site is one escape decision of the compiler.
type Site struct {
	// File is the absolute, cleaned path of the source file.
	File string
	// Line and Col are the 1-based position the compiler reports, with
	// columns counted in bytes; see the package documentation for which
	// token of each kind of expression that is.
	Line, Col int
	// Expr is the compiler's text for the value: "make([]int, n)",
	// "&T{...}", "a + b", "func literal", "append", "... argument", or the
	// variable's name for Moved.
	Expr string
	// Kind is the decision.
	Kind Kind
	// Inlined reports that Kind was decided for a copy of the site inlined
	// into another function (and reported by the compiler at that call),
	// and is stronger than the decision reported at the site itself.
	Inlined bool
}

// String formats s as "file:line:col: kind: expr", with " (inlined)"
// appended when s.Inlined is set.
func (s Site) String() string {
	str := fmt.Sprintf("%s:%d:%d: %s: %s", s.File, s.Line, s.Col, s.Kind, s.Expr)
	if s.Inlined {
		str += " (inlined)"
	}
	return str
}

// position is a site's key.
type position struct {
	file      string
	line, col int
}

func (s Site) pos() position { return position{s.File, s.Line, s.Col} }
