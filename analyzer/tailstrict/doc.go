// Package tailstrict defines an Analyzer that reports the tail-strict fold
// of the functional-programming literature in its Go forms: code that
// drains a whole stream into memory before passing anything on, so every
// element is live at once where one would do, and a pipeline's next stage
// waits for the last element before it sees the first.
//
// # Analyzer tailstrict
//
// tailstrict: report stages that drain their whole input before emitting
//
// The analyzer reports four shapes.
//
// Drain, then emit. A loop that reads a stream to its end — a range over a
// channel or an iterator (range-over-func), a bufio.Scanner Scan loop, or a
// Next() loop — and only appends each element to a local slice; then a
// later loop that ranges over that slice once and emits downstream: a
// channel send, a call of a function value (yield, a callback), a method
// named Send, Write, WriteString, WriteByte, WriteRune, Encode, Emit or
// Publish (not on a bytes.Buffer, strings.Builder or hash, which keep the
// input or digest it rather than pass it on), or fmt.Print*/Fprint*. Inside an iterator adapter
// (func(yield func(T) bool)) this is an adapter that collects its upstream
// before its first yield. It stays quiet when
//
//   - the slice is used in any other way: sorted, reversed, indexed other
//     than by the second loop's own key, ranged twice,
//     returned, passed to a function, stored, captured by a closure, or
//     assigned anything but append to itself;
//   - the first loop emits anything itself (the stage is not strict);
//   - a synchronisation or release sits between the loops: a channel
//     operation, a select, or a call of a method named
//     Wait, Lock, Unlock, RLock, RUnlock, Close, Done, Acquire, Release,
//     Signal or Broadcast (collect-then-close is how a stage frees a
//     database cursor or a lock before working);
//   - the second loop refers to anything its source refers to (the stage
//     may be feeding its own input).
//
// Its length may be read anywhere (if len(buf) == 0 { return }: a length
// holds nothing), and a go statement between the loops is no
// synchronisation of the stage's: what it starts runs beside the stage,
// which still holds every element when it begins to emit.
//
// Collect, then range. A range over slices.Collect(seq), directly or
// through a local variable used only there, materialises the whole
// sequence to visit it once. It stays quiet for views of memory the
// program already holds — maps.Keys, Values, All, slices.Values, All,
// Backward, and iterators returned by a method of a value (t.All(),
// stk.Frames()), which walk what the value holds: collecting them at most
// doubles memory that is live anyway. Streams come from functions,
// function values and parameters. It also stays quiet when the loop body
// may change what the sequence reads from — a snapshot such as
// "for _, k := range slices.Collect(keysOf(m)) { delete(m, k) }" — that
// is, when the body assigns to, takes the address of, deletes from, clears,
// calls a method on, or passes to a function any variable the sequence
// expression (or the variable's definition) mentions. The suggested fix
// rewrites "for _, v := range slices.Collect(seq)" to "for v := range seq"
// and "for range slices.Collect(seq)" to "for range seq"; with an index
// variable there is no fix. The fix interleaves the sequence's own work
// with the loop body, which the quiet rule above makes safe for what the
// body can change.
//
// Collect, then take the first. slices.Collect(seq)[0], or a local
// collected slice used only as s[0] and len(s): the whole sequence is
// materialised for one element. Take it with a range that breaks.
//
// Read all, then split and range. io.ReadAll (or ioutil.ReadAll) whose
// data is used only by one split — strings.Split, SplitAfter, Fields,
// Lines, SplitSeq, FieldsSeq, or their bytes forms, through string()/[]byte()
// conversions and Trim* calls — whose result is ranged once: the whole input
// and all its pieces are live at once where bufio.Scanner holds one line.
// It stays quiet for in-memory readers (strings.Reader, bytes.Reader,
// bytes.Buffer), for io.LimitReader with a constant bound of at most
// 1 MiB, and when the loop writes every piece into a bytes.Buffer,
// strings.Builder or hash (the memory is O(input) either way). The reader's origin is followed through the SSA form (buildssa):
// variables, interface conversions and phi nodes, so a reader built in one
// place and read in another is still recognised.
//
// Silence a finding with a comment on its line or the line above:
//
//	//spvet:ignore tailstrict <reason>
package tailstrict
