// Package rewrite turns a user's Go packages into instrumented ones that
// call package rtlib, spgo's runtime: it never writes the user's files,
// only new sources that the go command reads through -overlay.
//
// Packages loads the packages with golang.org/x/tools/go/packages, runs
// the compiler's escape analysis on them (package escape), rewrites every
// file with something to instrument on github.com/dave/dst, and reports
// what it left alone. File rewrites one type-checked file.
//
// What is instrumented (rewrite/README.md has the table of shapes):
//
//   - go statements: the function value and arguments are evaluated in
//     the parent, then rtlib.Fork, the go statement running the call
//     between Task.Start and Task.Return, and Task.Resume;
//   - sync.WaitGroup Add, Done, Wait and Go, and errgroup.Group Go, TryGo,
//     Wait and SetLimit, with the group reached through locals, fields,
//     pointers, closures and embedded fields, and errgroup.WithContext,
//     whose results pass through rtlib.GroupContext;
//   - blocking operations: channel sends and receives, range over a
//     channel, select without default (a loop rtlib drives, with the case
//     bodies dispatched by index so none is duplicated), close,
//     Mutex/RWMutex locks and unlocks, Cond Wait/Signal/Broadcast,
//     time.Sleep, and testing's Run, RunParallel and Fuzz, which block
//     while other instrumented goroutines run;
//   - allocation sites the escape analysis puts on the heap: make, new,
//     &T{...}, slice and map literals, append growth, string
//     concatenation and conversions, variables moved to the heap; make of
//     a variable size that stays on the stack gets a run-time size test;
//   - roots (main.main, tests, benchmarks, fuzz targets, examples,
//     TestMain), the scope of every function that spawns, and the profile
//     flush before os.Exit and log.Fatal;
//   - calls to uninstrumented code (packages not rewritten in the same
//     run, methods through interfaces): rtlib.At(site) before the
//     statement, with the site of its first such call, so that the bytes
//     they allocate are charged to that call (external.go).
//
// Every rewritten statement keeps its line through //line directives, so
// compile errors, panics and stack traces name the user's file and line;
// generated identifiers start with spgo_ and step around every
// identifier of the package; the output is gofmt-clean. Files with
// nothing to instrument and files excluded by build constraints are not
// rewritten. A cgo file (import "C") is rewritten from its source as
// written, which cgo must see, type-checked with C's names unknown
// (cgo.go); a cgo file that does not type-check so is left as it is,
// with a warning.
//
// The non-test files of a package whose API rtlib implements
// (golang.org/x/sync/errgroup, when its own module is the one rewritten)
// are left as they are: the calls into it are hooked, and instrumenting
// its goroutines and channels as well would run each task twice.
//
// testing/synctest: a bubble's goroutines may not use channels made
// outside it, and rtlib's baton is made of such channels. A call of
// synctest.Test or synctest.Run is bracketed with rt.BubbleOpen and
// rt.BubbleClose: the caller goes out of rtlib for the call, and the
// bubble's goroutines run under Go's scheduler, every hook doing the
// plain operation. Roots open meanwhile say their figures are not exact.
//
// Not instrumented (rtlib accounts for their memory, charged to the last
// external call marked or the last hook passed rather than to their own
// line): interface conversions, closures, map growth, appends and string
// operations the compiler keeps on the stack, method values of hooked
// methods (f := wg.Done; rtlib's Wait copes) but a Cond's Signal and
// Broadcast, groups reached through an unexported
// embedded field of another package (a warning says so), and in cgo
// files the constructs that need the type of an expression of C's (a
// select sending C.f(), an append of one).
package rewrite
