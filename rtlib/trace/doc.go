// Package trace is the on-disk format of a recorded computation graph,
// "spgo.trace/v1": the strands of one serial, deterministic run of a root
// (main, or one test), with their weights and per-site composition, the
// tasks (goroutines) they belong to, and the dependencies between them.
// Package sim replays such graphs under scheduling policies.
//
// The package depends on the standard library only: rtlib links it into
// instrumented programs, which stream their graph to disk with a Writer.
//
// # Model
//
// A Strand is a maximal run of one task between two scheduling events
// (spawn, join, blocking operation, return). Its weights follow the MHWM
// model (docs/algorithms.md, "Model"): Net is s(e), the bytes it allocated minus the bytes it freed
// (negative when it frees its predecessors' memory), and Peak is m(e), the
// maximum of 0 and of every prefix of that running sum. Sites splits both
// by allocation site: the strand's net per site, and each site's share at
// the first moment the running sum reached Peak (Σ Net = Net and
// Σ AtPeak = Peak). Work is its duration in nanoseconds.
//
// Strand IDs are 0..n-1 in the order the strands started in the recorded
// run; strand 0 is the root's first. A Dep says that To cannot start
// before From has ended:
//
//   - Spawn: the parent's strand that ended at a go statement → the child
//     task's first strand; Cont: the same strand → the parent's next strand.
//   - Seq: a task's strand → its next strand, when they are split by
//     anything but a spawn (a join, a blocking operation).
//   - Join: a joined child's last strand → the parent's strand after the
//     Wait. A child released by a Done before its end is joined from its
//     last strand too, as the MHWM engine joins it, unless the Wait
//     returned before the child ended: then from the strand that ended
//     at its Done.
//   - Chan, Mutex, Cond, Other: synchronisation between tasks: the strand
//     that ended at a send (close, unlock, signal, …) → the strand that
//     begins after the matching receive (lock, wake-up, …). A channel of
//     capacity c also orders the other way: the strand that ended at its
//     k-th receive → the strand that begins after its (k+c)-th send (for an
//     unbuffered channel, c = 0, this is the rendezvous).
//
// # Format
//
// A trace file is text, one record per line, integers in decimal, names
// quoted with strconv.Quote. Blank lines and lines starting with '#' are
// ignored. The first line is the header; then any number of roots:
//
//	spgo.trace/v1
//	site SITE "name"                       names a site, for the whole file
//	root "name"                            begins a root
//	task ID PARENT SITE                    a task; PARENT -1 for the root task
//	strand ID TASK WORK NET PEAK [SITE:NET:ATPEAK ...]
//	more SITE:NET:ATPEAK ...               more sites of the strand just above
//	dep FROM TO KIND                       KIND: spawn cont seq join chan mutex cond other
//	census ID CUT STRAND ...               census ID (0, 1, …): the strands that ran since the last
//	                                       one, the strand it cut (-1: none); may continue on
//	                                       more census records with the same ID and CUT
//	free AT SITE BYTES CENSUS ALLOC        BYTES died at SITE, found by census CENSUS; ALLOC
//	                                       allocated them (-1: unknown); charged at AT at the latest
//	end                                    ends the root
//
// Inside a root, records come in any order that a streaming recorder
// produces: a strand is written when it ends, a dep as soon as it is known
// (before or after the records of its strands), a task when it is spawned.
// A site may be named anywhere, once (naming it again with the same name is
// allowed); each Graph gets the names declared before its end. Read
// validates everything a Writer cannot check in O(1) memory: strand IDs
// dense from 0, deps between known strands, no cycle, tasks.
//
// # Deaths
//
// A recorder finds deaths only at censuses (garbage collections). A
// death it can place at once is part of a strand's weights. One that the
// series-parallel accounting defers to a join is a free record instead:
// Read places it at the start of the first strand (in a topological
// order) that follows the strand that allocated the bytes and every
// strand that ran since the previous census, one of which dropped the
// last reference, if that strand comes before AT; channel, lock and
// other synchronisation deps can order such a strand long before the
// join, which is what makes a pipeline's simulated peak realistic.
// A census also cuts the running strand in two (CUT, after a Seq dep),
// so that a death the running strand caused can be placed right after
// it; Read then merges the two parts again, exactly (the second part's
// running sum continues the first's), and renumbers the strands, so that
// the cut is no scheduling point for a simulation.
//
// Example, a root that spawns one child which allocates 1 KiB at site 1
// and frees it after the join:
//
//	spgo.trace/v1
//	site 1 "main.go:12"
//	root "main"
//	task 0 -1 0
//	task 1 0 2
//	strand 0 0 100 0 0
//	dep 0 1 spawn
//	dep 0 2 cont
//	strand 1 1 2500 1024 1024 1:1024:1024
//	strand 2 0 50 0 0
//	dep 1 3 join
//	dep 2 3 seq
//	strand 3 0 10 -1024 0 1:-1024:0
//	end
package trace
