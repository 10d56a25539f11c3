// Objects the compiler proves dead at their function's return (rtlib's
// acct_frame.go): a non-constant make that does not escape, and appends
// to slices that do not escape. Each function that has one gets Mark and
// Drop; an append whose variable alone holds its array is AppendOwned.
package main

import (
	"fmt"
	"slices"
)

// scratch: a make of variable size, dropped at the return.
func scratch(n int) int {
	b := make([]byte, n)
	b[n-1] = 1
	return int(b[0] + b[n-1])
}

// owned: s is the only reference to its array: AppendOwned.
func owned(n int) int {
	var s []int
	for i := range n {
		s = append(s, i)
	}
	s = s[:len(s)/2]
	s = append(s[:1], s[2:]...)
	slices.Sort(s)
	sum := 0
	for _, v := range s {
		sum += v
	}
	return sum + len(s) + cap(s)
}

// aliased: t keeps s's old array: AppendFrame, the old arrays kept to
// the return.
func aliased(n int) int {
	s := make([]int, 0, 4)
	t := s[:0]
	for i := range n {
		s = append(s, i)
	}
	return len(s) + len(t)
}

// addressed: a pointer into the old array outlives the growth.
func addressed(n int) int {
	s := []int{1}
	p := &s[0]
	for i := range n {
		s = append(s, i)
	}
	return *p + len(s)
}

// ranged: the range goes on over the array it started with.
func ranged(n int) int {
	s := []int{1, 2, 3}
	for _, v := range s {
		if len(s) < n {
			s = append(s, v)
		}
	}
	return len(s)
}

// deferred: the deferred call keeps the array it was given.
func deferred(n int) (k int) {
	s := []int{1}
	defer func(a []int) { k += len(a) }(s)
	for i := range n {
		s = append(s, i)
	}
	return len(s)
}

// captured: a closure of the function's own, with its own frame.
func captured(n int) int {
	f := func() int {
		var s []byte
		for i := range n {
			s = append(s, byte(i))
		}
		return len(s)
	}
	return f()
}

func main() {
	fmt.Println(scratch(100), owned(100), aliased(100), addressed(100), ranged(10), deferred(10), captured(100))
}
