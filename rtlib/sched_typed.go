package rtlib

// Hooks whose type parameters come from the container alone. Send and
// Append infer their type parameters from every argument, so
// rtlib.Send(site, ch, v) does not compile where ch <- v does by
// assignability: v of type *fs.PathError on a chan error, a Callback
// (type Callback func()) on a chan func(). The rewriter then writes
//
//	rtlib.ChanOf(ch).Send(site, ch, v)
//	rtlib.SliceOf(s).Append(site, s, xs...)
//
// ChanOf and SliceOf fix the type parameters from ch or s only, and v and
// xs are assigned to the method's parameters as the send statement and
// append assign them. The container is passed again so that it is read
// with the values, in the order the compiler gives the original
// statement; the rewriter writes this shape only for a container it can
// evaluate twice.

// ChanOps are the channel hooks for a channel of element type T.
type ChanOps[T any] struct{}

// ChanOf returns the channel hooks for ch's element type; it does not
// keep ch.
func ChanOf[T any](ch chan<- T) ChanOps[T] { return ChanOps[T]{} }

// Send is ch <- v (see the package function Send).
func (ChanOps[T]) Send(site Site, ch chan<- T, v T) { Send(site, ch, v) }

// SliceOps are the slice hooks for a slice of type S.
type SliceOps[S ~[]E, E any] struct{}

// SliceOf returns the slice hooks for s's type; it does not keep s.
func SliceOf[S ~[]E, E any](s S) SliceOps[S, E] { return SliceOps[S, E]{} }

// Append is append(s, xs...) (see the package function Append).
func (SliceOps[S, E]) Append(site Site, s S, xs ...E) S { return Append(site, s, xs...) }

// AppendFrame is AppendFrame(site, s, xs...).
func (SliceOps[S, E]) AppendFrame(site Site, s S, xs ...E) S { return AppendFrame(site, s, xs...) }

// AppendOwned is AppendOwned(m, site, s, xs...).
func (SliceOps[S, E]) AppendOwned(m Scratch, site Site, s S, xs ...E) S {
	return AppendOwned(m, site, s, xs...)
}

// TypedString is String for a string of a defined type (type label
// string), which it returns with its type.
func TypedString[S ~string](site Site, s S) S {
	String(site, string(s))
	return s
}
