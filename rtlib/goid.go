package rtlib

import (
	"runtime"
	"sync"
)

// goid returns the id of the calling goroutine, parsed from the header
// runtime.Stack writes ("goroutine 18 [running]:"). It costs a stack
// walk (microseconds), so rtlib calls it only where the identity of the
// caller cannot be known otherwise: roots, adoption, Release, and every
// scheduling hook while identities are checked (see self).
func goid() uint64 {
	goidMu.Lock()
	n := runtime.Stack(goidBuf[:], false)
	var id uint64
	const prefix = len("goroutine ")
	for _, c := range goidBuf[prefix:n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	goidMu.Unlock()
	return id
}

var (
	goidMu  sync.Mutex
	goidBuf [64]byte
)
