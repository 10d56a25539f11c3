// Package spgo holds what the spgo commands need of the repository as a
// whole: the source of the runtime, which spbuild injects into the
// modules it instruments so that a lone spbuild binary works anywhere.
package spgo

import "embed"

// Runtime is the source (Go and assembly) of github.com/spgo/spgo/rtlib
// and of its subpackages mhwm, profile and trace, test files included
// (spbuild skips them).
//
//go:embed rtlib/*.go rtlib/*.s rtlib/mhwm/*.go rtlib/profile/*.go rtlib/trace/*.go
var Runtime embed.FS
