// Package dep is inlined into package sites.
package dep

// P is a small struct.
type P struct{ x int }

// NewP returns a new P.
func NewP() *P { return &P{1} }

// Len allocates n bytes and returns their number.
func Len(n int) int {
	b := make([]byte, n)
	return len(b)
}

// Words allocates n words and returns their number.
func Words(n int) int {
	w := make([]uint64, n)
	return len(w)
}
