package a

import (
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

func fetch(i int) []byte { return make([]byte, i) }

type page struct {
	url  string
	body []byte
}

// A WaitGroup, go statements, a slot per child.
func goStmt(n int) int {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = fetch(i)
		}()
	}
	wg.Wait()
	total := 0
	for _, r := range results { // want `joinbeforeconsume: every child of wg stores its result in results and one pass consumes them after wg.Wait \(line 28\), so all results are live at once \(peak = sum of results\); stream them instead`
		total += len(r)
	}
	return total
}

// WaitGroup.Go; the pass indexes by its key and len is fine.
func wgGo(n int) {
	pages := make([]*page, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { pages[i] = &page{body: fetch(i)} })
	}
	wg.Wait()
	fmt.Println(len(pages))
	for i := range pages { // want `joinbeforeconsume: every child of wg stores its result in pages`
		fmt.Println(pages[i].url, len(pages[i].body))
		pages[i] = nil
	}
}

// errgroup, Wait in an if statement.
func errGroup(urls []string) error {
	var g errgroup.Group
	g.SetLimit(8)
	bodies := make([]string, len(urls))
	for i, u := range urls {
		g.Go(func() error {
			bodies[i] = u + string(fetch(i))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, b := range bodies { // want `joinbeforeconsume: every child of g stores its result in bodies`
		fmt.Println(b)
	}
	return nil
}

// A map store and an append, each under a mutex; a group in a field.
type crawler struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	seen map[string][]byte
}

func (c *crawler) crawl(urls []string) {
	seen := map[string][]byte{}
	var order []string
	for i, u := range urls {
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			b := fetch(i)
			c.mu.Lock()
			seen[u] = b
			order = append(order, u)
			c.mu.Unlock()
		}()
	}
	c.wg.Wait()
	for u, b := range seen { // want `joinbeforeconsume: every child of wg stores its result in seen`
		fmt.Println(u, len(b))
	}
	for _, u := range order { // want `joinbeforeconsume: every child of wg stores its result in order`
		fmt.Println(u)
	}
}

// An interface slot holding a pointer; results from a tuple.
func anySlots(n int) {
	out := make([]any, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { out[i], errs[i] = load(i) })
	}
	wg.Wait()
	for _, o := range out { // want `joinbeforeconsume: every child of wg stores its result in out`
		fmt.Println(o)
	}
}

func load(i int) (any, error) { return &page{body: fetch(i)}, nil }

// A worker pool: a few children, each filling many slots.
func pool(jobs <-chan int, n int) {
	results := make([][]byte, n)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for j := range jobs {
				results[j] = fetch(j)
			}
		})
	}
	wg.Wait()
	for _, r := range results { // want `joinbeforeconsume: every child of wg stores its result in results`
		fmt.Println(len(r))
	}
}

// In a function literal.
var literal = func(n int) {
	results := make([]string, n)
	var g errgroup.Group
	for i := range n {
		g.Go(func() error { results[i] = fmt.Sprint(i); return nil })
	}
	_ = g.Wait()
	for _, r := range results { // want `joinbeforeconsume: every child of g stores its result in results`
		fmt.Println(r)
	}
}
