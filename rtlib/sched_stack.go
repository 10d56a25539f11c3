package rtlib

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
)

// Stack stands for runtime.Stack in instrumented code: the same text,
// without rtlib's frames and, with all, without rtlib's own goroutines
// (the watchdog, the grace timer). A goroutine parked in a channel hook
// then shows on top of its stack the program's function that made the
// operation, as the original does (the runtime hides its own frames),
// and a leak check that ignores goroutines by their top function
// (goleak's IgnoreTopFunction) finds it. What still differs: a goroutine
// parked in a sync hook shows the program's function where the original
// shows sync's; one that has not reached its function yet keeps rtlib's
// frames (it would have none of them left); "created by" lines name
// rtlib where rtlib started the goroutine of a go statement.
func Stack(buf []byte, all bool) int {
	n := runtime.Stack(buf, all)
	if n < len(buf) {
		return filterStack(buf, buf[:n])
	}
	// buf may hold a cut trace, and the cut may fall inside frames that
	// filtering drops: take the whole trace, then as much as fits.
	size := max(2*len(buf), 4<<10)
	for {
		raw := make([]byte, size)
		if !inBubble() {
			held()
			ownAlloc(int64(size)) // garbage when Stack returns
		}
		n = runtime.Stack(raw, all)
		if n < size {
			return filterStack(buf, raw[:n])
		}
		size *= 2
	}
}

// rtFrame is how the function line of a frame of rtlib (or of a package
// under it) begins in a stack trace: rtlib's import path.
var rtFrame = []byte(strings.TrimSuffix(runtime.FuncForPC(reflect.ValueOf(anchor).Pointer()).Name(), ".anchor"))

// anchor is a function of rtlib's, for rtFrame.
func anchor() {}

// ownEntries begin the function lines of the entry functions of rtlib's
// own goroutines.
var ownEntries = [][]byte{
	append(bytes.Clone(rtFrame), ".watchdog("...),
	append(bytes.Clone(rtFrame), ".graceWait("...),
}

var createdBy = []byte("created by ")

// filterStack writes into dst, at most len(dst) bytes, the trace src
// without rtlib's frames and own goroutines, and returns how many bytes
// it wrote. The trace is runtime.Stack's: goroutines separated by an
// empty line, each a header line and frames, a frame a function line
// and the tab-indented lines after it, the last frame of a goroutine
// started by a go statement its "created by" line. A goroutine keeps
// rtlib's frames if it has no others. dst and src may begin at the same
// byte: what filterStack writes never passes what it has read. It
// allocates nothing.
func filterStack(dst, src []byte) int {
	w := 0
	put := func(b []byte) { w += copy(dst[w:], b) }
	first := true
	for len(src) > 0 {
		block := src
		if i := bytes.Index(src, []byte("\n\n")); i >= 0 {
			block, src = src[:i+1], src[i+2:]
		} else {
			src = nil
		}
		header, rest := nextFrame(block)
		var entry []byte // the goroutine's bottom frame but "created by"
		kept := 0
		for f, r := nextFrame(rest); len(f) > 0; f, r = nextFrame(r) {
			if bytes.HasPrefix(f, createdBy) {
				continue
			}
			entry = f
			if !isRtFrame(f) {
				kept++
			}
		}
		if isOwnEntry(entry) {
			continue
		}
		if !first {
			put([]byte("\n"))
		}
		first = false
		put(header)
		for f, r := nextFrame(rest); len(f) > 0; f, r = nextFrame(r) {
			if kept == 0 || !isRtFrame(f) || bytes.HasPrefix(f, createdBy) {
				put(f)
			}
		}
	}
	return w
}

// nextFrame splits b into its first frame (or header line), newline
// included, and the rest.
func nextFrame(b []byte) (frame, rest []byte) {
	i := bytes.IndexByte(b, '\n') + 1
	if i == 0 {
		return b, nil
	}
	for i < len(b) && b[i] == '\t' {
		j := bytes.IndexByte(b[i:], '\n') + 1
		if j == 0 {
			return b, nil
		}
		i += j
	}
	return b[:i], b[i:]
}

// isRtFrame reports whether f is a frame of rtlib or of a package under it.
func isRtFrame(f []byte) bool {
	return bytes.HasPrefix(f, rtFrame) && len(f) > len(rtFrame) && (f[len(rtFrame)] == '.' || f[len(rtFrame)] == '/')
}

// isOwnEntry reports whether f is the entry frame of one of rtlib's own
// goroutines.
func isOwnEntry(f []byte) bool {
	for _, e := range ownEntries {
		if bytes.HasPrefix(f, e) {
			return true
		}
	}
	return false
}
