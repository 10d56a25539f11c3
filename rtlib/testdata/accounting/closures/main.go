// Closures: go statements of many shapes, and a WaitGroup.Go, for
// TestGoClosures. Each
// closure the go statement allocates holds the variables it captures: by
// value when at most 128 bytes, never assigned after their declaration
// and never addressed, else by reference. The rewriter computes each
// one's size (rewrite/closure.go) for rtlib to charge at the fork; with
// CLOSURE_REPORT set, the program prints to stderr, for every go
// statement of this file, the size of the object the runtime allocated
// there (runtime.MemProfile at MemProfileRate 1), which the test
// compares with the rewriter's.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

func init() { runtime.MemProfileRate = 1 }

type pair struct {
	a, b int64
	c    bool
}

type counter struct{ n int }

func (c *counter) bump() { c.n++ }

func (c counter) get() int { return c.n }

func add(wg *sync.WaitGroup, out *int64, a, b int64) {
	defer wg.Done()
	*out = a + b
}

func two() (int, string) { return 2, "two" }

// done is a go statement's function that captures nothing.
func done() { tupleWG.Done() }

// tupleWG is take's WaitGroup: a call of two() must be take's only argument.
var tupleWG *sync.WaitGroup

func take(n int, s string) {
	defer tupleWG.Done()
	_ = strconv.Itoa(n) + s
}

func main() {
	var wg sync.WaitGroup
	var sum int64
	x, y := int64(3), int64(4)
	p := pair{1, 2, true}
	var big [40]int64
	big[3] = 7
	assigned := 1
	addressed := 5
	q := &addressed
	c := counter{}
	c.bump()
	flag := true
	var results [12]int64

	wg.Add(13)
	go add(&wg, &sum, x, y) // args
	go func() {             // by value
		defer wg.Done()
		results[1] = x + y
	}()
	go func() { // assigned
		defer wg.Done()
		assigned++
	}()
	go func() { // struct
		defer wg.Done()
		results[3] = p.a + p.b
	}()
	go func() { // big
		defer wg.Done()
		results[4] = big[3]
	}()
	go func() { // addressed
		defer wg.Done()
		results[5] = int64(addressed)
	}()
	tupleWG = &wg
	go take(two()) // tuple
	go done()      // nothing captured
	go func() {    // method
		defer wg.Done()
		results[7] = int64(c.get())
	}()
	go func() { // padding
		defer wg.Done()
		if flag {
			results[8] = x
		}
	}()
	for i := 0; i < 1; i++ {
		go func() { // loop
			defer wg.Done()
			results[9] = int64(i)
		}()
	}
	for i := range 1 {
		go func() { // range
			defer wg.Done()
			results[10] = int64(i) + y
		}()
	}
	go func(n int64) { // literal args
		defer wg.Done()
		results[11] = n
	}(x)
	wg.Go(func() { // wg.Go
		results[0] = x * y
	})
	wg.Wait()
	*q = 6
	fmt.Println(sum, results, assigned, addressed)
	if os.Getenv("CLOSURE_REPORT") != "" {
		report()
	}
}

// report prints "line size" for the objects allocated by the runtime
// itself (no frame of another package between it and this file) at a
// line of this file that holds a go statement or a WaitGroup.Go.
func report() {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+64)
	n, _ = runtime.MemProfile(recs, true)
	src, err := os.ReadFile(thisFile())
	if err != nil {
		panic(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, r := range recs[:n] {
		if r.AllocObjects == 0 {
			continue
		}
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasSuffix(f.File, "closures/main.go") {
				if l := f.Line - 1; l < len(lines) && (strings.Contains(lines[l], "go ") || strings.Contains(lines[l], ".Go(")) {
					fmt.Fprintf(os.Stderr, "closure %d %d\n", f.Line, r.AllocBytes/r.AllocObjects)
				}
				break
			}
			if !strings.HasPrefix(f.Function, "runtime.") || !more {
				break
			}
		}
	}
}

func thisFile() string {
	_, file, _, _ := runtime.Caller(0)
	return file
}
