package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// processed counts the items handled by all pools.
var processed atomic.Int64

type pool struct {
	jobs      chan string
	results   chan string
	wg        sync.WaitGroup
	collected chan struct{}
	out       []string
}

func newPool(workers int) *pool {
	p := &pool{
		jobs:      make(chan string),
		results:   make(chan string, workers),
		collected: make(chan struct{}),
	}
	for range workers {
		p.wg.Add(1)
		go p.work()
	}
	go func() {
		p.wg.Wait()
		close(p.results)
	}()
	go p.collect()
	return p
}

func (p *pool) work() {
	defer p.wg.Done()
	for s := range p.jobs {
		p.results <- fmt.Sprintf("%s -> %s", s, strings.ToUpper(s[:1])+s[1:])
		processed.Add(1)
	}
}

func (p *pool) collect() {
	defer close(p.collected)
	for r := range p.results {
		p.out = append(p.out, r)
	}
}

func (p *pool) submit(s string) {
	p.jobs <- s
}

// finish closes the job queue and returns all results, sorted.
func (p *pool) finish() []string {
	close(p.jobs)
	<-p.collected
	sort.Strings(p.out)
	return p.out
}
