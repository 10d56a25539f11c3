// testing/synctest: rtlib cannot run inside a bubble, so a call of
// synctest.Test or synctest.Run gets a warning naming it.
package main

import (
	"testing"
	"testing/synctest"
)

func check(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {})
}

func main() {
	_ = check
}
