// Package joinbeforeconsume defines an advisory Analyzer that reports
// results gathered from every child of a goroutine group and consumed only
// after the join, when consuming them as they arrive would do.
//
// # Analyzer joinbeforeconsume
//
// joinbeforeconsume: report results that all stay live until the join (advisory, off by default)
//
// A common shape of parallel Go is: allocate a slice (or map) of results,
// spawn one child per item, let each child fill its slot, Wait, then make
// one sequential pass over the slots. Every result is live when Wait
// returns, so the peak memory is the sum of all results, where streaming
// them (each result sent on a channel and consumed as it arrives, or
// consumed in the child under a mutex) needs only the results in flight.
//
// The analyzer reports, at the range statement, a local slice, array or
// map results when, in one function:
//
//   - results is declared before a loop that spawns children into a group
//     (go func(){ defer wg.Done(); ... }(), wg.Go(func(){...}), or
//     errgroup's g.Go(func() error {...}));
//   - a child stores into it a value that holds memory: results[i] = v,
//     or results = append(results, v) (a mutex is expected but not
//     checked: the memory is the same either way), where v is a string,
//     pointer, slice, map, channel, function, interface, or an array or
//     struct holding one. Numbers, booleans and errors are not counted:
//     their sum is small;
//   - the first Wait on that group after the spawn is outside the loop;
//   - after that Wait, results is used by exactly one range statement of
//     the function itself (not in a closure, not inside a loop that does
//     not also contain the Wait), besides len(results), cap(results) and
//     results[k] in the range body with k its key.
//
// Before that Wait, results may only be indexed, measured with len or cap,
// assigned, or appended to as above. Any other use of results anywhere in
// the function (returned, passed to a function such as sort.Slice,
// assigned to another variable or a field, sliced, captured as a whole,
// indexed after Wait other than by the range key, ranged over twice) means
// the program wants all results at once, and the analyzer stays quiet. So
// does a pass that copies the results into another collection that
// outlives it — it appends to or stores by index into a variable declared
// outside it, with a value that mentions the range's key or value, and
// that variable is not a local of the function or is used after the pass
// (returned, sorted, handed on): the results are wanted whole, and
// streaming them would keep as much live. It also stays quiet for
// parameters, fields and
// package variables, children started by named functions, and groups
// without a loop around the spawn.
//
// The analyzer offers no suggested fix: streaming is a redesign of the
// consumer, not a mechanical edit.
//
// The analyzer is advisory and off by default. Turn it on with its enable
// flag, which the drivers prefix with the analyzer's name:
//
//	spvet -joinbeforeconsume.enable ./...
//	go vet -vettool=$(which spvet) -joinbeforeconsume.enable ./...
//
// (-joinbeforeconsume alone selects the analyzer but does not enable it.)
// Silence one report with a comment on its line or the line above:
//
//	//spvet:ignore joinbeforeconsume <reason>
package joinbeforeconsume
