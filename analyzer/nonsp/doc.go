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
//     the go statement counts it in (a group Add, or a method call that
//     adds to a group, acquires a semaphore, or sends a token on a field of
//     its receiver that another method of its type receives from), when it
//     runs inside testing/synctest.Test, when it is given a group or a
//     channel, or when what it runs — a literal, a local closure variable,
//     or a function or method of the package — signals. Its own body may
//     signal in any way: send on or close a channel, close an io.Pipe
//     writer, signal a sync.Cond, write through an atomic package, hand a
//     group or channel on. Through the functions it calls, at any depth
//     and across packages, what counts is what they do, not what they are
//     called (the syncfacts summaries): a group's Done or a semaphore
//     Release. A callee's Add, Go, Wait or Cond signal does not: it counts
//     or wakes other goroutines.
//
// A goroutine's last message counts too: when its last act (the go
// statement's call, or the last statement of its literal) calls a function
// that sends on or closes a channel of an element type the spawning
// function itself receives from — a response one call deep
// (go func() { req.respond(v) }(); ... <-req.resp). Empty structs do not
// count (every <-ctx.Done() receives one).
//
// A goroutine that runs a method (the go statement's call, or its
// literal's last call) is joined by another method of the same type that
// waits for it: a method the package calls (or, for a type of the
// package, an exported one) that waits (Wait, receive) on a receiver field
// the goroutine's method signals through (Done, send, close), at any
// depth — a Stop or Close that cancels and then waits for what Serve
// signals last, whatever their names. An Add in the goroutine's method
// counts the goroutines it starts, not itself; a field it both sends on
// and receives from is a token (a semaphore), no signal. Libraries spvet
// does not read are modelled: net/http's Server.Serve (and ServeTLS,
// ListenAndServe, ListenAndServeTLS) is joined by Close or Shutdown,
// grpc's Server.Serve by Stop or GracefulStop, when the package refers to
// one. A goroutine that closes an io.WriteCloser or io.ReadCloser (a child
// process's pipe) in a package that waits for a child process (os/exec
// Cmd.Wait, Run, Output, CombinedOutput) is joined by that Wait.
//
// "Add after a concurrent Wait" is not reported when the goroutine that
// waits is started by a deferred function: it starts when the function
// returns, after the Adds of its body.
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
