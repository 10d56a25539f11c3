// Package dep stands for a dependency spgo does not instrument: the
// corpus test rewrites only the program's own package.
package dep

import "sync"

// Square stores n*n in *out and marks its work done on wg.
func Square(wg *sync.WaitGroup, n int, out *int) {
	*out = n * n
	wg.Done()
}

// Later calls f in a goroutine of its own.
func Later(f func()) { go f() }

// DoneAll calls wg.Done n times, from goroutines of its own.
func DoneAll(wg *sync.WaitGroup, n int) {
	for range n {
		go wg.Done()
	}
}
