// Program panicrecover exercises panics recovered inside goroutines.
//
// Constructs:
//   - a deferred closure calling recover() in each spawned goroutine, the
//     recovered value turned into an error and sent on a channel;
//   - panics with a string, with an error value, and runtime panics (index
//     out of range, nil map assignment, integer division by zero, nil
//     pointer dereference), checked with a type assertion to runtime.Error;
//   - a goroutine that does not panic;
//   - a helper that recovers and converts a panic into a named error result;
//   - the program continues normally and exits with status 0.
package main

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
)

type outcome struct {
	id      int
	value   int
	err     error
	runtime bool
}

type point struct{ x int }

var errCustom = errors.New("custom failure")

func task(id int, out chan<- outcome) {
	defer func() {
		if r := recover(); r != nil {
			_, isRuntime := r.(runtime.Error)
			var err error
			if e, ok := r.(error); ok {
				err = fmt.Errorf("task %d: %w", id, e)
			} else {
				err = fmt.Errorf("task %d: %v", id, r)
			}
			out <- outcome{id: id, err: err, runtime: isRuntime}
		}
	}()

	xs := []int{1, 2, 3}
	var m map[string]int
	var p *point
	zero := 0
	v := 0
	switch id {
	case 0:
		panic("boom")
	case 1:
		panic(errCustom)
	case 2:
		v = xs[id+3]
	case 3:
		m["k"] = 1
	case 4:
		v = 10 / zero
	case 5:
		v = p.x
	default:
		v = xs[id%3] * 100
	}
	out <- outcome{id: id, value: v}
}

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("safeDiv(%d, %d): %v", a, b, r)
		}
	}()
	return a / b, nil
}

func main() {
	out := make(chan outcome)
	const n = 7
	for id := range n {
		go task(id, out)
	}
	results := make([]outcome, 0, n)
	for range n {
		results = append(results, <-out)
	}
	sort.Slice(results, func(i, j int) bool { return results[i].id < results[j].id })
	for _, r := range results {
		if r.err == nil {
			fmt.Printf("task %d: ok, value %d\n", r.id, r.value)
			continue
		}
		fmt.Printf("%v (runtime error: %v, custom: %v)\n", r.err, r.runtime, errors.Is(r.err, errCustom))
	}

	for _, b := range []int{4, 0} {
		q, err := safeDiv(12, b)
		fmt.Println("safeDiv:", q, err)
	}
	fmt.Println("main continues normally")
}
