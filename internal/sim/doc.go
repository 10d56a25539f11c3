// Package sim simulates scheduling policies over a recorded computation
// graph (a trace.Graph), in the manner of Spoonhower, Blelloch, Harper and
// Gibbons: it replays the strands of one serial run on p simulated
// processors and reports the memory each policy would need, when, and at
// which allocation sites. Unlike MHWM_p (package mhwm), which is a bound
// over every schedule of a series-parallel computation, a simulation gives
// one policy's figure, and it respects every dependency of the graph,
// channels, locks and condition variables included, so it gives realistic
// peaks for pipelines and worker pools, where the series-parallel bound
// does not apply.
//
// # Model
//
// Memory follows the convention of Oracle B (docs/algorithms.md, "Test
// oracles"): at any instant it is Σ Net of the strands completed plus Σ Peak of the strands
// started and not completed (running or preempted), each running strand
// counted at its own high-water mark. A strand is ready when every strand
// it depends on has completed. Time is driven by events with the strands'
// real weights: a processor that starts strand e at time t finishes it at
// t+Work(e), zero-work strands take no time. At one instant, completions
// are handled first (by processor index), then the idle processors start
// work in index order; ties among strands are broken by ID. Randomness
// (work stealing's victims, Go's steal order) comes from a PCG seeded
// with 1, 2, …, Options.Seeds: the same input gives the same Result.
//
// # Policies
//
//   - DF, depth-first (Blelloch, Gibbons, Matias): among the ready
//     strands, start the one earliest in the 1-processor child-first
//     depth-first order, computed from the deps (at a spawn the child's
//     subtree before the continuation; a strand is placed once all its
//     predecessors are). On one processor it is the serial run.
//   - BF, breadth-first: one global FIFO of ready strands, in the order
//     they became ready (the child before the continuation).
//   - WS, work stealing (Cilk, work first): per-processor deques; a
//     worker runs the spawned child and pushes the continuation; a strand
//     made ready by a completion runs on the worker that completed (the
//     last child to reach a join resumes the parent; see wsSched); a
//     worker with nothing to do pops its own deque's bottom, or steals the
//     top of a seeded random victim's.
//   - Go, like the Go runtime: the spawned goroutine goes into the P's
//     runnext slot while the parent runs on; a goroutine readied by
//     another goes to the readier's runnext; a P takes runnext, its local
//     FIFO, the global queue, then steals half a local queue; a strand
//     running for a whole time slice (10 ms by default) is preempted,
//     keeps its memory at its peak, and goes to the global queue (see
//     goSched).
//
// WS and Go are run once per seed; the Result is the run with the largest
// peak, and Result.Seeds gives the minimum, median and maximum.
//
// # Relation to MHWM_p
//
// MHWM_p is the worst memory over the p-processor schedules that never
// leave a started series-parallel component without a running strand
// (docs/algorithms.md, "Busy leaves"). Work stealing obeys that rule, and its
// schedules are among those of Oracle C, so on a
// series-parallel graph its peak is at most MHWM_p for every seed. DF, BF
// and Go do not obey it: DF and BF may start a strand of one component
// while another, half done, waits, and Go's FIFO queues and its
// preemption do the same (preemption even leaves more strands started
// than processors). They can exceed MHWM_p — the package's tests keep the
// smallest examples — but never MHWM_∞ (MHWM at p = the number of
// strands), which bounds every state of any schedule. For programs whose
// synchronisation is not series-parallel (channels, locks), MHWM is not
// exact and the simulations are the realistic figures.
//
// # Cost
//
// A simulation costs O(n log n + m) for n strands and m deps with a
// fixed p (WS and Go add O(p) per steal; Go adds an event per preemption,
// up to Σ Work / TimeSlice), and O(n) memory. WriteDOT draws
// the graph at a Result's high-water step, by Spoonhower's rules.
package sim
