// Package mhwm computes the p-processor memory high-water mark (MHWM) of a
// fork-join computation: the most memory any execution on p processors can
// need, over every schedule, following Cilkmem (Kaler, Kuszmaul, Schardl,
// Vettorel, APOCS 2021); docs/algorithms.md describes the algorithms.
//
// An Engine consumes the events of one serial, child-first run (Alloc, Free,
// Spawn, Return, Sync, Call, CallReturn, Exit) and folds the series-parallel
// DAG online in O(p·D) words, D being the depth of open scopes:
//
//   - exact mode answers MHWM_q for every q ≤ P in one pass (Result.MHWM),
//     with the child-first serial peak, work and span;
//   - threshold mode (Config.Threshold = M) answers whether MHWM_P ≥ M/2
//     or MHWM_P < M in O(1) words per scope, in time independent of P;
//   - with Config.Attribution the run keeps a compact trace of strand
//     summaries, and Result.Attribute returns a worst-case antichain with a
//     per-site map that sums exactly to MHWM_q, split into running, completed
//     and suspended bytes; Result.Diff attributes MHWM_q′ − MHWM_q;
//   - Engine.SetLimit models errgroup.Group.SetLimit exactly: MHWM_q is the
//     worst case over the schedules that respect the limit, where a parent
//     blocked in Go holds its memory without a processor (see limit.go).
//
// The offline building blocks (comp with leaf, series and parallel; block;
// approx with its combinators and approxBlock) are the Engine's own and
// its tests': they are not exported. The package depends on the standard
// library only: it is linked into instrumented user programs.
package mhwm
