package fix

import (
	"iter"
	"slices"
)

func use(int) {}

func values(seq iter.Seq[int]) {
	for _, v := range slices.Collect(seq) { // want `slices.Collect materialises`
		use(v)
	}
}

func count(seq iter.Seq[int]) int {
	n := 0
	for range slices.Collect(seq) { // want `slices.Collect materialises`
		n++
	}
	return n
}

func indexed(seq iter.Seq[int]) {
	for i, v := range slices.Collect(seq) { // want `slices.Collect materialises`
		use(i * v)
	}
}
