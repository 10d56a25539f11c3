// Package b instantiates a.Gen in a file of the same base name, iter.go:
// the compiler's log of b/iter.go overwrites that of a.Gen[int].
package b

import "lost/a"

// gen is a.Gen[int] as a value: the instantiation is compiled here and
// not inlined into Use.
var gen = a.Gen[int]

// Use calls the instantiation.
func Use() int {
	_, n := gen(1)
	return n + len(make([]int, n))
}
