// testing/synctest: rtlib cannot schedule a bubble's goroutines, so a
// call of synctest.Test or synctest.Run is bracketed with BubbleOpen and
// BubbleClose: the caller leaves the baton for the call, and hooks in the
// bubble do the plain operation.
package main

import (
	"testing"
	"testing/synctest"
)

func check(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		done := make(chan bool)
		go func() { done <- true }()
		<-done
	})
}

func main() {
	_ = check
}
