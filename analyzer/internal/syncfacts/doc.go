// Package syncfacts defines an Analyzer that summarises, per function,
// what it does to channels, goroutine groups, semaphores, condition
// variables and contexts, so that spvet's analyzers judge a callee by
// what it does rather than by the words of its name.
//
// # Analyzer syncfacts
//
// syncfacts: summarise each function's synchronisation as facts
//
// The summary of a function is built from its SSA form
// (golang.org/x/tools/go/ssa, built as buildssa does): its own operations —
// channel sends, receives and closes, blocking selects, WaitGroup and
// errgroup Add, Go, Done and Wait, semaphore Acquire and Release, Cond
// Wait and Signal, Mutex locks, time.Sleep, io.Pipe closes, calls of a
// context.CancelFunc, atomic writes — and those of every function it
// calls statically, whatever its package: a callee of another package is
// read from the fact that package's pass exported. The standard library
// is not summarised (go vet would run the analyzer on every package of it
// a module imports): its synchronising functions are the primitives
// above. The functions a
// function starts as goroutines are not part of its summary: they run
// concurrently with it, not in its steps.
//
// A summary keeps apart the operations the function makes itself (Own):
// a lock or a send deep in a callee says less about the caller than one
// of its own.
//
// For a method, the summary also says which fields of its receiver each
// operation went through (s.wg.Done() is a group Done on field wg): that is
// how a Stop that waits for what Serve signals is recognised without
// looking at names. Channel operations also record the channel's element
// type, so that a send deep in a callee can be matched with the receive
// of the goroutine that waits for it.
//
// The analyzer reports nothing; its Result answers the other analyzers'
// questions about the package's functions and the functions they call.
package syncfacts
