// Package rtlib is the runtime linked into programs instrumented by spgo.
// Instrumented code (the output of package rewrite) calls it at goroutine
// spawns and joins, at blocking operations and at heap allocation sites;
// it runs the program serially and deterministically and computes the
// p-processor memory high-water mark with package mhwm.
//
// rtlib depends on the standard library only: spbuild injects it into
// arbitrary user modules. Its exported names are the contract with the
// rewriter (rewrite/README.md has the table of constructs); they are not
// meant to be called by hand.
//
// # Sites
//
// Every instrumented operation names a static site: a file registers its
// table once (Register) and passes base+k, an int32, to the hooks, so a
// hook's cost does not depend on how much it knows about its site.
//
// # Goroutines
//
// A go statement becomes
//
//	t := rtlib.Fork(site)
//	go func() {
//		defer t.Finish()
//		t.Start()
//		f(x, y)
//		t.Return()
//	}()
//	t.Resume()
//
// with f's operands evaluated before Fork. Finish without Return means
// the goroutine is panicking or calling runtime.Goexit.
//
// # Blocking operations
//
// Channel operations, locks, Cond waits, group waits and sleeps go
// through rtlib so that a goroutine that must wait gives up the baton.
// A select statement that may block becomes a loop that rtlib drives: an
// attempt with a default case, or, when rtlib says so, the blocking
// select, until one case has fired:
//
//	w := rtlib.Select(site, "rs")  // one letter per case: r(eceive), s(end)
//	for w.Next(i, c0, c1) {
//		if w.Blocking() {
//			select { case r0 = <-c0: i = 0; case c1 <- v1: i = 1 }
//		} else {
//			select { case r0 = <-c0: i = 0; case c1 <- v1: i = 1; default: }
//		}
//	}
//
// # Allocations
//
// Allocation hooks take the freshly allocated value and return it; they
// read only its size. They are placed only at sites the compiler's escape
// analysis puts on the heap, so a hook never moves a value to the heap.
package rtlib
