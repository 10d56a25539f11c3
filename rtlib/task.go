package rtlib

// Task is one spawned goroutine, from its Fork in the parent to its
// Finish in the child.
type Task struct {
	site     Site
	returned bool
}

// Fork is called by the parent at a go statement, after the operands of
// the call are evaluated and before the go statement runs.
func Fork(site Site) *Task {
	return &Task{site: site}
}

// Start is the first thing the child goroutine does.
func (t *Task) Start() {}

// Return is called by the child when its function returned normally.
func (t *Task) Return() { t.returned = true }

// Finish is deferred by the child; it ends the task. Without a Return
// before it the goroutine is panicking or exiting through
// runtime.Goexit, and the profile is flushed.
func (t *Task) Finish() {
	if !t.returned {
		Flush()
	}
}

// Resume is called by the parent right after the go statement.
func (t *Task) Resume() {}

// Frame is an open function scope.
type Frame struct{ site Site }

// Enter opens the scope of a function that spawns goroutines; it is
// deferred-closed with Leave:
//
//	defer rtlib.Leave(rtlib.Enter(site))
func Enter(site Site) Frame { return Frame{site} }

// Leave closes a scope opened by Enter.
func Leave(f Frame) {}

// Root is an open root: main.main or one test, benchmark, fuzz target or
// example.
type Root struct{ site Site }

// BeginRoot opens a root; the rewriter puts
//
//	defer rtlib.EndRoot(rtlib.BeginRoot(site))
//
// first in the root function.
func BeginRoot(site Site) *Root { return &Root{site} }

// EndRoot closes a root, joins the goroutines spawned in it and never
// joined, and writes the profile. It runs on a normal return and during
// a panic.
func EndRoot(r *Root) { Flush() }
