package a

import (
	"sort"
	"sync"
)

// Issue 24: a pass after Wait that copies every result into a slice
// that is returned or sorted wants the results whole: quiet.

type hit struct {
	name string
	data []byte
}

func gatherReturned(names []string) []hit {
	found := make([][]hit, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[i] = []hit{{name: n, data: fetch(i)}}
		}()
	}
	wg.Wait()
	var out []hit
	for _, hs := range found {
		out = append(out, hs...)
	}
	return out
}

func gatherSorted(names []string) {
	pages := make([]*page, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() { pages[i] = &page{url: n, body: fetch(i)} })
	}
	wg.Wait()
	all := make([]*page, 0, len(pages))
	for _, p := range pages {
		if p != nil {
			all = append(all, p)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].url < all[j].url })
}

// A copy into a slice nobody uses afterwards is still one pass: reported.
func gatherDropped(names []string) int {
	bodies := make([][]byte, len(names))
	var wg sync.WaitGroup
	for i := range names {
		wg.Go(func() { bodies[i] = fetch(i) })
	}
	wg.Wait()
	var sizes []int
	for _, b := range bodies { // want `joinbeforeconsume: every child of wg stores its result in bodies`
		sizes = append(sizes, len(b))
	}
	return 0
}
