package rtlib

import (
	"sync"
	"testing"
	"time"
)

// TestGatherOnlyWhenReady: goroutines in selects on tickers of their
// own, each woken alone, take the free baton without waiting for other
// selects to complete: nothing else is ready to run. Before, every such
// take waited the whole gather window (250 µs), and dozens of tickers
// (golang-lru's reapers) starved the test they ran beside.
func TestGatherOnlyWhenReady(t *testing.T) {
	const tickers, ticks = 4, 5
	g0, r0 := gathers.Load(), gatherRounds.Load()
	inRoot(func() {
		var wg sync.WaitGroup
		Add(sAdd, &wg, tickers)
		for i := range tickers {
			spawn(func() {
				defer Done(&wg)
				tk := time.NewTicker(time.Duration(3+2*i) * time.Millisecond)
				defer tk.Stop()
				for range ticks {
					never := make(chan int)
					c0, c1 := never, tk.C
					i := -1
					w := Select(sSelect, "rr")
					for w.Next(i, c0, c1) {
						if w.Blocking() {
							select {
							case <-c0:
								i = 0
							case <-c1:
								i = 1
							}
						} else {
							select {
							case <-c0:
								i = 0
							case <-c1:
								i = 1
							default:
							}
						}
					}
				}
			})
		}
		Wait(sWait, &wg)
	})
	quiet(t)
	g, r := gathers.Load()-g0, gatherRounds.Load()-r0
	t.Logf("%d takes of the free baton with selects out, %d rounds of waiting", g, r)
	if g < tickers {
		t.Fatalf("%d takes of the free baton while selects ran for real: the test does not test", g)
	}
	// A tick that comes with another's, or with the watchdog's, may wait
	// a round; most come alone.
	if r*2 > g {
		t.Errorf("%d rounds of waiting in %d takes: takers wait without anything ready to run", r, g)
	}
}
