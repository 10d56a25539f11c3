package rtlib

import (
	"fmt"
	"sync/atomic"
)

// A testing/synctest bubble is a world of its own: its goroutines may not
// use a channel made outside it (the runtime ends the process), and its
// fake clock advances only when every goroutine of the bubble is blocked
// on the bubble's own channels, timers or locks. rtlib's baton is made of
// channels and keeps goroutines waiting on them, so it cannot schedule a
// bubble's goroutines. It leaves them to Go's scheduler instead: the
// goroutine that calls synctest.Test or synctest.Run goes out of rtlib
// for the call, like a blocking call (BubbleOpen, BubbleClose), and every
// hook called by a goroutine of a bubble does the plain operation and
// nothing else (inBubble). Their memory is not modelled, and the heap
// readings of every root open meanwhile see it: those roots say so and
// give no interval (bubbleReason).

var (
	// bubbles counts the bubbles open: while it is 0, no hook needs to
	// ask which goroutine calls it.
	bubbles atomic.Int32

	// bubbled records the bubbles opened in the run: their number, and
	// (warnMu held) the first maxStuck places, for bubbleReason.
	bubbled struct {
		n     atomic.Int64
		where []string
	}

	// bubbleTask is the task Fork returns in a bubble: its methods do
	// nothing, and the go statement runs as written.
	bubbleTask = &Task{kind: kBubble}

	// bubbleRoot is the root BeginRoot returns in a bubble (a subtest
	// of a synctest test): EndRoot does nothing with it.
	bubbleRoot = new(Root)
)

// inBubble reports whether the calling goroutine belongs to a synctest
// bubble. It costs a look at the goroutine's header while a bubble is
// open, an atomic load otherwise.
func inBubble() bool {
	return bubbles.Load() != 0 && inBubbleSlow()
}

func inBubbleSlow() bool {
	_, b := goidBubble()
	return b
}

// Bubble is a synctest bubble opened by the holder (see BubbleOpen).
type Bubble struct {
	t *Task
}

// BubbleOpen is called before synctest.Test or synctest.Run: the caller
// leaves the baton for the call, as for a blocking call, and the bubble's
// goroutines run under Go's scheduler.
func BubbleOpen(site Site) Bubble {
	beat(site)
	if inBubble() {
		// A bubble in a bubble: the runtime refuses it itself.
		return Bubble{}
	}
	t := self()
	warnMu.Lock()
	if len(bubbled.where) < maxStuck {
		bubbled.where = append(bubbled.where, sitePos(site))
	}
	warnMu.Unlock()
	bubbled.n.Add(1)
	bubbles.Add(1)
	goOut(t)
	return Bubble{t: t}
}

// BubbleClose is called when synctest.Test or synctest.Run returns: the
// caller queues for the baton again.
func BubbleClose(b Bubble) {
	if b.t == nil {
		return
	}
	bubbles.Add(-1)
	arrive(b.t)
}

// bubbleReason is the reason a root gives for the bubbles number from to
// to (excluded) of the run, "" if there were none.
func bubbleReason(from, to int64) string {
	if to <= from {
		return ""
	}
	return fmt.Sprintf("%d testing/synctest bubble(s) ran while the root was open%s: their goroutines run under Go's scheduler, not serially, and what they allocate is in the heap's readings but not in the model, so a figure may be too high or too low", to-from, firstEvent(&bubbled.where, from, " (the first at %s)"))
}
