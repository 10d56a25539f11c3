package rtlib

// Send is ch <- v.
func Send[T any](site Site, ch chan<- T, v T) { ch <- v }

// Recv is <-ch.
func Recv[T any](site Site, ch <-chan T) T { return <-ch }

// Recv2 is v, ok := <-ch, and one iteration of a range over ch.
func Recv2[T any](site Site, ch <-chan T) (T, bool) {
	v, ok := <-ch
	return v, ok
}

// Close is close(ch).
func Close[T any](ch chan<- T) { close(ch) }

// Elem returns the zero value of ch's element type; the rewriter declares
// a select's receive temporaries with it, so it never has to name a type.
func Elem[T any](ch <-chan T) T {
	var zero T
	return zero
}

// SelectState drives the loop a blocking select statement becomes (see the
// package documentation).
type SelectState struct {
	site  Site
	dirs  string
	tries int
}

// Select starts a select statement with one case per letter of dirs: 'r'
// for a receive, 's' for a send.
func Select(site Site, dirs string) SelectState {
	return SelectState{site: site, dirs: dirs}
}

// Next is called before each attempt with the index of the case that
// fired in the previous attempt (-1 if none, or before the first) and the
// cases' channels in order; it reports whether to attempt again.
func (w *SelectState) Next(fired int, chans ...any) bool {
	if fired >= 0 {
		return false
	}
	w.tries++
	return true
}

// Blocking reports whether the next attempt must be the blocking select.
func (w *SelectState) Blocking() bool { return w.tries > 1 }
