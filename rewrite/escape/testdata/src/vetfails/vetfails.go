// Package vetfails compiles, and so do its tests, but go vet's tests
// check rejects its example (as in github.com/cenkalti/backoff/v4): go
// test -c vets by default, which the escape analysis must not do.
package vetfails

// Buf returns a buffer that escapes.
func Buf() []byte { return make([]byte, 64) }
