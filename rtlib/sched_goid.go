package rtlib

import (
	"bytes"
	"runtime"
	"sync"
)

// goid returns the id of the calling goroutine, parsed from the header
// runtime.Stack writes ("goroutine 18 [running]:"). It costs a stack
// walk (microseconds), so rtlib calls it only where the identity of the
// caller cannot be known otherwise: roots, adoption, Release, and every
// scheduling hook while identities are checked (see self).
func goid() uint64 {
	id, _ := goidBubble()
	return id
}

// goidBubble returns the id of the calling goroutine and whether it
// belongs to a testing/synctest bubble, which the header says (Go 1.25:
// "goroutine 18 [running, synctest bubble 2]:").
func goidBubble() (uint64, bool) {
	goidMu.Lock()
	defer goidMu.Unlock()
	n := runtime.Stack(goidBuf[:], false)
	head := goidBuf[:n]
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	var id uint64
	const prefix = len("goroutine ")
	for _, c := range head[min(prefix, len(head)):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id, bytes.Contains(head, []byte("synctest bubble"))
}

var (
	goidMu  sync.Mutex
	goidBuf [160]byte // the header line, and a little of the next
)
