package rtlib

import "os"

// Exit writes the profile and calls os.Exit(code).
func Exit(code int) {
	Flush()
	os.Exit(code)
}

// Flush writes the profile as it is now. The rewriter calls it before
// log.Fatal and friends.
func Flush() { flushFinal() }
