package a

import "sync"

// Issue 24: bounds judged by what a callee does, not by its name.

// limitLen is a string-length limiter: its name says limit, it bounds
// nothing.
func limitLen(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func nameLimit(items []Item, names []string) {
	for i, it := range items {
		_ = limitLen(names[i], 8)
		go process(it) // want `one goroutine per element of items`
	}
}

// waitForPosition computes where to wait: no synchronisation.
func waitForPosition(i int) int { return i * 2 }

func nameWait(items []Item) {
	for i, it := range items {
		_ = waitForPosition(i)
		go process(it) // want `one goroutine per element of items`
	}
}

// notify sends in a goroutine it starts: the loop does not wait for it.
func notify(ch chan<- Item, it Item) {
	go func() { ch <- it }()
}

func sendInCalleeGoroutine(items []Item, ch chan<- Item) {
	for _, it := range items {
		notify(ch, it)
		go process(it) // want `one goroutine per element of items`
	}
}

// A recursive fan-out: the Wait in the outer loop waits for a level, but
// every child fans out again before it returns.
type Tree struct{ Kids []*Tree }

func walkLevels(levels [][]*Tree) {
	var wg sync.WaitGroup
	for _, level := range levels {
		for _, t := range level {
			wg.Add(1)
			go func() { // want `one goroutine per element of level`
				defer wg.Done()
				walkLevels([][]*Tree{t.Kids})
			}()
		}
		wg.Wait()
	}
}

// pacer blocks on a token channel under a name that says nothing: the
// loop waits for it.
type pacer struct{ tokens chan struct{} }

func (p *pacer) step() { <-p.tokens }

func pacedByCallee(p *pacer, items []Item) {
	for _, it := range items {
		p.step()
		go process(it)
	}
}

// Names appended through a local closure called a fixed number of
// times (as tickers are): their number is written in the code.
func fixedByClosure() {
	var names []string
	add := func(s string) { names = append(names, s) }
	add("first")
	add("second")
	for _, n := range names {
		go process(Item{Name: n})
	}
}

// A package-level registry filled at init: its size is the code's.
var fixtures = map[string]Item{}

func register(name string, it Item) { fixtures[name] = it }

func init() {
	register("a", Item{Name: "a"})
	register("b", Item{Name: "b"})
}

func fanOutRegistry() {
	for _, it := range fixtures {
		go process(it)
	}
}

// The same registry shape filled by an exported function: anyone may
// grow it.
var catalog = map[string]Item{}

func Add(name string, it Item) { catalog[name] = it }

func fanOutCatalog() {
	for _, it := range catalog {
		go process(it) // want `one goroutine per element of catalog`
	}
}
