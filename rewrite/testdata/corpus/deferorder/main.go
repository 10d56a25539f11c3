// Program deferorder exercises defer in main, in functions and in goroutines.
//
// Constructs:
//   - several defers in main, printed in LIFO order when main returns;
//   - defer in a loop (LIFO across iterations);
//   - defer whose arguments are evaluated at the defer statement, compared
//     with a deferred closure that reads the variable when it runs;
//   - a deferred closure modifying named results, with and without recover;
//   - defer wg.Done() and defer mu.Unlock() inside goroutines;
//   - per-goroutine defer logs collected and printed in a fixed order.
package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

func double() (n int) {
	defer func() { n *= 2 }()
	return 21
}

func parse(s string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parse %q: %v", s, r)
			n = -1
		}
	}()
	if s == "" {
		panic(errors.New("empty input"))
	}
	return len(s), nil
}

func argsAtDefer() {
	x := 1
	defer fmt.Println("defer arg saw x =", x)
	defer func() { fmt.Println("closure saw x =", x) }()
	x = 2
	fmt.Println("x set to", x)
}

func loopDefers() {
	for i := range 3 {
		defer fmt.Println("loop defer", i)
	}
	fmt.Println("loop done")
}

func main() {
	defer fmt.Println("main defer 1 (runs last)")
	defer fmt.Println("main defer 2")

	fmt.Println("double:", double())
	for _, s := range []string{"abc", ""} {
		n, err := parse(s)
		fmt.Println("parse:", n, err)
	}
	argsAtDefer()
	loopDefers()

	var wg sync.WaitGroup
	var mu sync.Mutex
	shared := 0
	logs := make([][]string, 3)
	for g := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var steps []string
			defer func() { logs[g] = steps }()
			record := func(s string) { steps = append(steps, s) }

			mu.Lock()
			defer mu.Unlock()
			shared += g + 1
			for k := range 2 {
				defer record(fmt.Sprintf("g%d-defer%d", g, k))
			}
			record(fmt.Sprintf("g%d-body", g))
		}()
	}
	wg.Wait()
	for _, l := range logs {
		fmt.Println(strings.Join(l, " "))
	}
	fmt.Println("shared:", shared)
}
