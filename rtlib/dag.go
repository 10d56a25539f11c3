package rtlib

// The DAG events. The scheduler calls these at every point where the
// series-parallel DAG (and its non-SP channel edges) changes; they are
// empty until the profile is computed with package mhwm. Every call but
// dagAcquire and dagBlock is made by the baton holder (or by a goroutine
// about to take the baton) with the baton's serial order, so the events
// arrive in the child-first serial order mhwm expects. Calls marked
// "sched.mu held" are made with the scheduler's lock held: they must not
// call back into the scheduler.

// dagFork: parent spawns child at site (Fork, before the go statement).
// sched.mu held. mhwm: Spawn.
func dagFork(parent, child *Task, site Site) {}

// dagUnfork: a task forked by GroupTryGo was not started after all.
// sched.mu held.
func dagUnfork(t *Task) {}

// dagStart: the child runs for the first time (Start, holding the baton).
// The strand that follows belongs to the child.
func dagStart(t *Task) {}

// dagReturn: the child ends (Finish), holding the baton; t.returned says
// whether its function returned normally. sched.mu held. mhwm: Return.
func dagReturn(t *Task) {}

// dagJoin: t completed a Wait or GroupWait at site: it joins the children
// spawned into that group since the last join. mhwm: Sync.
func dagJoin(t *Task, site Site) {}

// dagLimit: errgroup SetLimit(n) on g. sched.mu held. mhwm: SetLimit.
func dagLimit(g Group, n int) {}

// dagEnter, dagLeave: the scope of a function that spawns (Enter, Leave).
// mhwm: Call, CallReturn.
func dagEnter(site Site) {}
func dagLeave(site Site) {}

// dagRootBegin: t begins the root at site, holding the baton.
func dagRootBegin(t *Task, site Site) {}

// dagRootEnd: t ends the root at site, holding the baton; the goroutines
// spawned in the root and never joined are joined here. mhwm: Exit.
func dagRootEnd(t *Task, site Site) {}

// dagAdopt: a goroutine rtlib did not create (a callback of uninstrumented
// code) becomes task t. sched.mu held.
func dagAdopt(t *Task) {}

// dagBlock: t gives up the baton in a blocking operation, a Sleep, a
// Release or because the watchdog took it: its strand ends. sched.mu held.
func dagBlock(t *Task) {}

// dagAcquire: t obtains the baton: the current strand is t's from here
// on. sched.mu held.
func dagAcquire(t *Task) {}

// dagComm: a rendezvous between the holder h and the parked task p on an
// unbuffered channel (a non-SP edge: results that depend on it are not
// exact). sched.mu held.
func dagComm(h, p *Task) {}

// dagRelease, dagReacquire: t runs a library call that starts other roots
// or callbacks (testing.T.Run and friends) between the two. dagRelease is
// called with sched.mu held.
func dagRelease(t *Task, site Site)   {}
func dagReacquire(t *Task, site Site) {}
