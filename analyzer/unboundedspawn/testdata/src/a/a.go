package a

import (
	"bufio"
	"context"
	"io"
	"iter"
	"net"
	"os"
	"runtime"
	"sync"
	"time"
)

type Item struct{ Name string }

func process(it Item) []byte { return make([]byte, len(it.Name)) }

func consume(s string) {}

func tick() {}

// Reported: one goroutine per element, nothing bounds them.

func perElement(items []Item) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() { // want `unboundedspawn: one goroutine per element of items with no bound on how many run at once; each holds per-item memory, so the peak grows with len\(items\): bound the concurrency with errgroup SetLimit\(n\), a semaphore, or a fixed pool of n workers reading from a channel`
			defer wg.Done()
			process(it)
		}()
	}
	wg.Wait()
}

func handle(wg *sync.WaitGroup, it Item) {
	defer wg.Done()
	process(it)
}

func namedFunc(items []*Item) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go handle(&wg, *it) // want `one goroutine per element of items`
	}
	wg.Wait()
}

func waitGroupGo(items []Item) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() { process(it) }) // want `one goroutine per element of items`
	}
	wg.Wait()
}

func argument(items []Item) {
	for i := range items {
		go func(it Item) { process(it) }(items[i]) // want `one goroutine per element of items`
	}
}

func overMap(m map[string]Item) {
	for k, v := range m {
		go func() { // want `one goroutine per element of m with no bound on how many run at once; each holds per-item memory, so the peak grows with len\(m\)`
			consume(k + v.Name)
		}()
	}
}

func overChannel(jobs <-chan Item, out chan<- []byte) {
	for job := range jobs {
		go func() { out <- process(job) }() // want `one goroutine per value received from jobs with no bound on how many run at once; each holds per-item memory, so the peak grows with the number of values received`
	}
}

func overIterator(seq iter.Seq[Item]) {
	for it := range seq {
		go process(it) // want `one goroutine per value yielded by seq`
	}
}

func lenLoop(items []Item) {
	for i := 0; i < len(items); i++ {
		go process(items[i]) // want `one goroutine per element of items`
	}
}

func reverseLoop(items []Item) {
	for i := len(items) - 1; i >= 0; i-- {
		go process(items[i]) // want `one goroutine per element of items`
	}
}

func rangeLen(items []Item) {
	for i := range len(items) {
		go process(items[i]) // want `one goroutine per element of items`
	}
}

func scanner(f *os.File) {
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		go consume(line) // want `one goroutine per item produced by sc with no bound on how many run at once; each holds per-item memory, so the peak grows with the number of items produced`
	}
}

// Rows is a database cursor, as in database/sql.
type Rows struct{}

func (*Rows) Next() bool            { return false }
func (*Rows) Scan(dst ...any) error { return nil }

func rows(r *Rows) {
	for r.Next() {
		var name string
		if err := r.Scan(&name); err != nil {
			return
		}
		go consume(name) // want `one goroutine per item produced by r`
	}
}

// Iterator is a key-value iterator, as in badger.
type Iterator struct{}

func (*Iterator) Rewind()     {}
func (*Iterator) Valid() bool { return false }
func (*Iterator) Next()       {}
func (*Iterator) Item() Item  { return Item{} }

func badgerStyle(it *Iterator) {
	for it.Rewind(); it.Valid(); it.Next() {
		item := it.Item()
		go process(item) // want `one goroutine per item produced by it`
	}
}

func readFile(name string) []byte { b, _ := os.ReadFile(name); return b }

func derived(names []string) {
	for _, name := range names {
		data := readFile(name)
		go func() { consume(string(data)) }() // want `one goroutine per element of names`
	}
}

func typeSwitch(vals []any) {
	for _, v := range vals {
		switch v := v.(type) {
		case Item:
			go process(v) // want `one goroutine per element of vals`
		}
	}
}

func nested(dirs []string, list func(string) []string) {
	for _, d := range dirs {
		for _, f := range list(d) {
			go consume(f) // want `one goroutine per element of list\(d\)`
		}
	}
}

type store struct {
	keys []string
	mu   sync.Mutex
}

func (s *store) ping(p string) { consume(p) }

func (s *store) field() {
	for _, p := range s.keys {
		go s.ping(p) // want `one goroutine per element of s.keys`
	}
}

func methodOfElement(items []*store) {
	for _, it := range items {
		go it.field() // want `one goroutine per element of items`
	}
}

func cancellable(ctx context.Context, items []Item) {
	for _, it := range items {
		select {
		case <-ctx.Done():
			return
		default:
		}
		go process(it) // want `one goroutine per element of items`
	}
}

func appended(extra []Item) {
	items := []Item{{Name: "a"}, {Name: "b"}}
	for _, e := range extra {
		items = append(items, e)
	}
	for _, it := range items {
		go process(it) // want `one goroutine per element of items`
	}
}

func mutatedMap(extra string) {
	m := map[string]Item{"a": {}}
	m[extra] = Item{}
	for _, it := range m {
		go process(it) // want `one goroutine per element of m`
	}
}

// Exported package-level variables may grow elsewhere.
var Defaults = []Item{{Name: "a"}}

func exportedVar() {
	for _, it := range Defaults {
		go process(it) // want `one goroutine per element of Defaults`
	}
}

func noReason(items []Item) {
	for _, it := range items {
		//spvet:ignore unboundedspawn
		go process(it) // want `one goroutine per element of items`
	}
}

func suppressed(items []Item) {
	for _, it := range items {
		//spvet:ignore unboundedspawn at most a handful of items
		go process(it)
	}
}

// Quiet: fixed worker counts.

func worker(jobs <-chan Item) {
	for j := range jobs {
		process(j)
	}
}

func countedPool(n int, jobs <-chan Item) {
	for i := 0; i < n; i++ {
		go worker(jobs)
	}
}

func numCPU(jobs <-chan Item) {
	for range runtime.NumCPU() {
		go worker(jobs)
	}
	for i := range 8 {
		go func() { process(Item{Name: string(rune('a' + i))}) }()
	}
	for i := 0; i < 4; i++ {
		go func() { process(Item{Name: string(rune('a' + i))}) }()
	}
}

func countedByLen(items []Item) {
	n := len(items)
	for i := 0; i < n; i++ {
		go process(items[i]) // a count, like range n
	}
}

func madeCount(n int) {
	ws := make([]Item, n)
	for _, w := range ws {
		go process(w)
	}
}

// Quiet: small, fixed collections.

func constArray() {
	names := [3]string{"a", "b", "c"}
	for _, n := range names {
		go consume(n)
	}
	for _, n := range &names {
		go consume(n)
	}
	for _, n := range []string{"x", "y"} {
		go consume(n)
	}
}

var defaults = []Item{{Name: "a"}, {Name: "b"}}

func literalVars(items []Item) {
	targets := []string{"a", "b"}
	for _, t := range targets {
		go consume(t)
	}
	m := map[string]Item{"a": {}, "b": {}}
	for _, v := range m {
		go process(v)
	}
	for _, d := range defaults {
		go process(d)
	}
	for _, it := range items[:4] {
		go process(it)
	}
	for _, t := range targets[1:] {
		go consume(t)
	}
}

// Quiet: bounded.

func semaphoreChannel(items []Item) {
	sem := make(chan struct{}, 8)
	for _, it := range items {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			process(it)
		}()
	}
}

func semaphoreInChild(items []Item) {
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			process(it)
		})
	}
	wg.Wait()
}

// Weighted is a weighted semaphore, as in golang.org/x/sync/semaphore.
type Weighted interface {
	Acquire(ctx context.Context, n int64) error
	Release(n int64)
}

func weighted(ctx context.Context, sem Weighted, items []Item) {
	for _, it := range items {
		if err := sem.Acquire(ctx, 1); err != nil {
			return
		}
		go func() {
			defer sem.Release(1)
			process(it)
		}()
	}
}

func weightedInChild(ctx context.Context, sem Weighted, items []Item) {
	for _, it := range items {
		go func() {
			if sem.Acquire(ctx, 1) != nil {
				return
			}
			defer sem.Release(1)
			process(it)
		}()
	}
}

func batches(items []Item) {
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Go(func() { process(it) })
		if i%16 == 15 {
			wg.Wait()
		}
	}
	wg.Wait()
}

func capped(items []Item, max int) {
	for i, it := range items {
		if i >= max {
			break
		}
		go process(it)
	}
}

func paced(items []Item) {
	for _, it := range items {
		time.Sleep(time.Millisecond)
		go process(it)
	}
}

func ticked(items []Item, t *time.Ticker) {
	for _, it := range items {
		<-t.C
		go process(it)
	}
}

func locked(s *store, items []Item) {
	for _, it := range items {
		s.mu.Lock()
		go func() {
			defer s.mu.Unlock()
			process(it)
		}()
	}
}

func (s *store) slot() { s.mu.Lock() }

func helperBlocks(s *store, items []Item) {
	for _, it := range items {
		s.slot()
		go process(it)
	}
}

func condInChild(c *sync.Cond, items []Item) {
	for _, it := range items {
		go func() {
			c.L.Lock()
			c.Wait()
			c.L.Unlock()
			process(it)
		}()
	}
}

// Quiet: nothing per item.

func nothingPerItem(items []Item) {
	for range items {
		go tick()
	}
	for _, it := range items {
		_ = it
		go func() { tick() }()
	}
	for i := range items {
		go func() { items[i].Name = "" }() // no call, no allocation
	}
}

// Quiet: servers and long-lived workers.

func acceptLoop(ln net.Listener) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go serveConn(conn)
	}
}

func serveConn(c net.Conn) { c.Close() }

func connChannel(conns <-chan net.Conn) {
	for c := range conns {
		go serveConn(c)
	}
}

type lane struct{ in chan Item }

func (s *lane) run() {
	for it := range s.in {
		process(it)
	}
}

func (s *lane) readLoop() {}

func shards(all []*lane, srvs []interface{ Start() }) {
	for _, s := range all {
		go s.run()
	}
	for _, s := range all {
		go s.readLoop()
	}
	for _, s := range all {
		go func() {
			for {
				select {
				case it := <-s.in:
					process(it)
				}
			}
		}()
	}
	for _, srv := range srvs {
		go srv.Start()
	}
}

// Quiet: the spawn is not the loop's: it runs when a callback does.

func callbacks(items []Item) []func() {
	var fs []func()
	for _, it := range items {
		fs = append(fs, func() { go process(it) })
	}
	return fs
}

// Quiet: callbacks, connections and pipes.

func hooks(fs []func(), byName map[string]func(Item), it Item) {
	for _, f := range fs {
		go f()
	}
	for _, f := range byName {
		go f(it)
	}
}

func closeAll(conns map[net.Conn]struct{}) {
	for c := range conns {
		go c.Close()
	}
}

func piped(items []Item, upload func(io.Reader)) {
	for _, it := range items {
		pr, pw := io.Pipe()
		go func() {
			pw.Write(process(it))
			pw.Close()
		}()
		upload(pr)
	}
}

// Quiet: chunks of a size that splits the work among a count of goroutines.

func chunked(items []Item, workers int) {
	size := (len(items) + workers - 1) / workers
	for i := 0; i < len(items); i += size {
		go func() {
			for _, it := range items[i:min(i+size, len(items))] {
				process(it)
			}
		}()
	}
}

// Quiet: a token taken through a local closure.

func closureToken(items []Item) {
	sem := make(chan struct{}, 4)
	enter := func() { sem <- struct{}{} }
	for _, it := range items {
		enter()
		go func() {
			defer func() { <-sem }()
			process(it)
		}()
	}
}

func recursiveWalk(root string, list func(string) []string) {
	var wg sync.WaitGroup
	ioLimit := make(chan bool, 20)
	var walk func(dir string)
	walk = func(dir string) {
		ioLimit <- true
		names := list(dir)
		<-ioLimit
		for _, name := range names {
			wg.Go(func() { walk(name) })
		}
	}
	walk(root)
	wg.Wait()
}

// Quiet: each child waits for a go-ahead before its work.

type job struct {
	start chan bool
	it    Item
}

func gatedJobs(jobs []*job) {
	for _, j := range jobs {
		go func() {
			if !<-j.start {
				return
			}
			process(j.it)
		}()
	}
}
