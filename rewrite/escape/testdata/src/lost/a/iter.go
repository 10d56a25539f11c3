// Package a has a generic function that inlines buf, whose make escapes
// only in a copy with a constant size.
package a

// buf's make does not escape: its size is not constant.
func buf(n int) int {
	b := make([]byte, n)
	return len(b)
}

// Gen inlines buf with a size too large for the stack.
func Gen[T any](x T) (T, int) {
	return x, buf(1 << 20)
}
