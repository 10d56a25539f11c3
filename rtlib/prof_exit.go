package rtlib

import (
	"bytes"
	"os"
)

// Exit writes the profile and calls os.Exit(code).
func Exit(code int) {
	Flush()
	os.Exit(code)
}

// Flush writes the profile as it is now. The rewriter calls it before
// log.Fatal and friends.
func Flush() { flushFinal() }

// goexiting reports whether the calling goroutine is running the
// deferred calls of runtime.Goexit (and not those of a panic).
func goexiting() bool {
	return ownStack(func(st []byte) bool {
		return !panicStack(st) && bytes.Contains(st, []byte("\nruntime.Goexit("))
	})
}

// When main.main calls runtime.Goexit, the Go runtime runs the other
// goroutines until none is left, then stops the process with "fatal
// error: no goroutines (main called runtime.Goexit) - deadlock!" (or,
// if some are blocked for ever, "all goroutines are asleep"). rtlib's
// own goroutine, the watchdog, would count as one blocked for ever: so
// from then on it ends whenever it would wait without a timer, and the
// next wakeWatchdogLocked starts it again (sched_watchdog.go).
