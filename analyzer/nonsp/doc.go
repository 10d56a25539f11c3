// Package nonsp defines an Analyzer that reports synchronisation that
// breaks the series-parallel structure spbuild models, and so makes its
// memory figures inexact.
//
// # Analyzer nonsp
//
// nonsp: report non-series-parallel use of goroutine groups
//
// spbuild models a sync.WaitGroup or errgroup.Group as a fork-join block:
// every goroutine spawned into the group by one function is joined by that
// function's Wait. The analyzer reports the uses that do not fit:
//
//   - Add inside a spawned goroutine on a group declared outside it: the
//     goroutines it counts are joined by a Wait that is not their spawner's
//     (or, if it counts the goroutine itself, Wait may return before it runs);
//   - Wait in a goroutine other than the one that spawns into the group (the
//     "closer" goroutine of a pipeline is the common case);
//   - Add, Go or TryGo after a concurrent Wait on the group began;
//   - a group copied by value (parameters, results, assignments, arguments):
//     the copy counts its own goroutines;
//   - a go statement that nothing joins, so spbuild joins it at the end of
//     its root. A goroutine counts as joined when the statement just before
//     the go statement counts it in (a group Add, or a method call on a
//     value whose type has a Wait method: a worker pool of another
//     library), when it runs inside testing/synctest.Test, when it is given
//     a group or a channel, or when what it runs — a literal, a local
//     closure variable, or a function or method of the package — signals.
//     Its own body may signal in any way: send on or close a channel, close
//     an io.Pipe writer, signal a sync.Cond, write through an atomic
//     package, hand a group or channel on. Up to three calls deep only a
//     group signal counts: Done, Go or Wait on a group, a result-less method
//     named Done (the group types of other libraries), a semaphore Release.
//
// The code may well be correct Go; the report says where spbuild's answer
// is an upper bound or an approximation rather than exact.
//
// Where an Add is the first statement of the go statement's literal and
// mentions nothing declared inside it, a suggested fix moves it (with its
// line comment) before the go statement, where it counts the goroutine
// before any Wait can run. No other report has a fix: the others need a
// change of design.
//
// Silence a report with a comment on its line or the line above:
//
//	//spvet:ignore nonsp <reason>
package nonsp

import (
	_ "embed"

	"github.com/spgo/spgo/analyzer/internal/analysisdoc"
)

//go:embed doc.go
var docGo string

// doc is the Analyzer's Doc: the "# Analyzer nonsp" section above.
var doc = analysisdoc.MustExtract(docGo, "nonsp")
