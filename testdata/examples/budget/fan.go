// Package budget is the example of memory budgets (docs/budgets.md):
// spbuild test -budget budgets.txt, and //spgo:budget markers on test
// functions.
//
// Fan runs Workers goroutines under a sync.WaitGroup, each with a
// scratch buffer of Scratch bytes that it drops when done, and keeps one
// byte of each. Analytic MHWM: p processors run at most min(p, Workers)
// workers at once, each with its scratch:
//
//	MHWM_p = min(p, Workers)·Scratch
//
// With Workers = 8 and Scratch = 1 MiB: 1 MiB at p = 1, 4 MiB at p = 4,
// 8 MiB from p = 8 on (plus a few KiB of runtime). One(), a single
// scratch buffer, is 1 MiB for every p.
package budget

import "sync"

const (
	Workers = 8
	Scratch = 1 << 20
)

// work fills a scratch buffer and returns a byte of it.
func work(w int) byte {
	scratch := make([]byte, Scratch)
	for i := range scratch {
		scratch[i] = byte(i + w)
	}
	return scratch[w]
}

// Fan runs Workers workers in parallel and returns their bytes.
func Fan() []byte {
	out := make([]byte, Workers)
	var wg sync.WaitGroup
	for w := range Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[w] = work(w)
		}()
	}
	wg.Wait()
	return out
}

// One runs one worker.
func One() byte { return work(1) }
