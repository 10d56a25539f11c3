package a

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"iter"
	"sort"
	"strings"
	"sync"
)

// A stage that drains its input channel before sending anything.
func stage(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in { // want `tailstrict: this stage drains its whole input \(channel in\) into buf before emitting anything`
		buf = append(buf, x*2)
	}
	for _, y := range buf {
		out <- y
	}
	close(out)
}

// Indexed by the second loop's own key: still one pass.
func stageIndexed(in <-chan string, out chan<- string) {
	buf := make([]string, 0, 16)
	for s := range in { // want `tailstrict: this stage drains`
		if s != "" {
			buf = append(buf, s)
		}
	}
	for i := range buf {
		out <- buf[i]
	}
}

// A Scanner loop collecting lines, printed afterwards.
func lines(r io.Reader) {
	sc := bufio.NewScanner(r)
	lines := []string{}
	for sc.Scan() { // want `tailstrict: this stage drains its whole input \(Scanner sc\)`
		lines = append(lines, sc.Text())
	}
	for _, l := range lines {
		fmt.Println(l)
	}
}

type rows interface {
	Next() bool
	Value() string
}

// A Next() loop feeding a callback.
func next(it rows, emit func(string)) {
	var vals []string
	for it.Next() { // want `tailstrict: this stage drains its whole input \(it.Next\(\) loop\)`
		vals = append(vals, it.Value())
	}
	for _, v := range vals {
		emit(v)
	}
}

// An iterator adapter that collects its upstream before the first yield.
func Double(seq iter.Seq[int]) iter.Seq[int] {
	return func(yield func(int) bool) {
		var all []int
		for v := range seq { // want `tailstrict: this iterator collects its whole upstream \(iterator seq\) into all`
			all = append(all, v)
		}
		for _, v := range all {
			if !yield(2 * v) {
				return
			}
		}
	}
}

// Quiet: the buffer is sorted — used as a whole.
func sorted(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	sort.Ints(buf)
	for _, y := range buf {
		out <- y
	}
}

// Quiet: the buffer is ranged twice.
func twice(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	for _, y := range buf {
		out <- y
	}
	for _, y := range buf {
		out <- y
	}
}

// Quiet: the buffer escapes (returned).
func escapes(in <-chan int, out chan<- int) []int {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	for _, y := range buf {
		out <- y
	}
	return buf
}

// Quiet: a send between the loops (of its length).
func length(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	out <- len(buf)
	for _, y := range buf {
		out <- y
	}
}

// Quiet: a synchronisation between the loops.
func synced(in <-chan int, out chan<- int, wg *sync.WaitGroup) {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	wg.Wait()
	for _, y := range buf {
		out <- y
	}
}

type cursor interface {
	Next() bool
	Value() string
	Close() error
}

// Quiet: the cursor is released before the work.
func released(c cursor, out chan<- string) {
	var ids []string
	for c.Next() {
		ids = append(ids, c.Value())
	}
	c.Close()
	for _, id := range ids {
		out <- id
	}
}

// Quiet: the first loop emits too (not strict).
func notStrict(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in {
		out <- x
		buf = append(buf, x)
	}
	for _, y := range buf {
		out <- y
	}
}

// Quiet: the second loop does not emit anything downstream.
func noEmit(in <-chan int) int {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	s := 0
	for _, y := range buf {
		s += y
	}
	return s
}

// Quiet: the second loop feeds the stage's own input.
func requeue(work chan int, out chan<- int) {
	var retry []int
	for x := range work {
		retry = append(retry, x)
	}
	for _, y := range retry {
		work <- y
	}
}

// Quiet: the source is a slice, not a stream.
func fromSlice(xs []int, out chan<- int) {
	var buf []int
	for _, x := range xs {
		buf = append(buf, x)
	}
	for _, y := range buf {
		out <- y
	}
}

// Quiet: batching — the buffer is used inside the first loop.
func batches(in <-chan int, out chan<- []int) {
	var batch []int
	for x := range in {
		batch = append(batch, x)
		if len(batch) == 10 {
			out <- batch
			batch = nil
		}
	}
	for _, y := range batch {
		out <- []int{y}
	}
}

// Quiet: the buffer is a reused slice of someone else's array.
func reused(in <-chan int, out chan<- int, scratch []int) {
	buf := scratch[:0]
	for x := range in {
		buf = append(buf, x)
	}
	for _, y := range buf {
		out <- y
	}
}

// Quiet: captured by a closure.
func captured(in <-chan int, out chan<- int) {
	var buf []int
	for x := range in {
		buf = append(buf, x)
	}
	flush := func() {
		for _, y := range buf {
			out <- y
		}
	}
	flush()
}

// Suppressed, with a reason.
func suppressed(in <-chan int, out chan<- int) {
	var buf []int
	//spvet:ignore tailstrict the consumer needs the producer finished first
	for x := range in {
		buf = append(buf, x)
	}
	for _, y := range buf {
		out <- y
	}
}

// Quiet: the "emit" writes into memory the function keeps.
func toBuffer(in <-chan string) string {
	var all []string
	for s := range in {
		all = append(all, s)
	}
	var b strings.Builder
	for _, s := range all {
		b.WriteString(s)
	}
	return b.String()
}

// Quiet: a digest of the input is not a downstream stage.
func digest(in <-chan []byte) []byte {
	var all [][]byte
	for s := range in {
		all = append(all, s)
	}
	h := sha256.New()
	for _, s := range all {
		h.Write(s)
	}
	return h.Sum(nil)
}
