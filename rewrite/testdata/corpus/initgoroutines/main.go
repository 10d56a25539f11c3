// Program initgoroutines exercises goroutines started during package
// initialization.
//
// Constructs:
//   - a package-level var initializer calling a function that starts
//     goroutines and returns a channel (primes);
//   - a package-level var initialized with a func literal call that spawns
//     goroutines and waits for them (table);
//   - two init functions, the first starting a goroutine that main joins via
//     a package-level WaitGroup, the second starting one that main consumes
//     through a channel;
//   - initialization order recorded in a slice by the (single-threaded)
//     initializers and printed by main.
package main

import (
	"fmt"
	"sync"
)

var order []string

var primes = startPrimes(30)

var table = func() [5]int {
	order = append(order, "table initializer")
	var t [5]int
	var wg sync.WaitGroup
	for i := range t {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t[i] = 1 << i
		}()
	}
	wg.Wait()
	return t
}()

var (
	initWG     sync.WaitGroup
	background int
	greeting   = make(chan string, 1)
)

func startPrimes(limit int) <-chan int {
	order = append(order, "primes initializer")
	out := make(chan int)
	go func() {
		defer close(out)
		for n := 2; n < limit; n++ {
			prime := true
			for d := 2; d*d <= n; d++ {
				if n%d == 0 {
					prime = false
					break
				}
			}
			if prime {
				out <- n
			}
		}
	}()
	return out
}

func init() {
	order = append(order, "init 1")
	initWG.Add(1)
	go func() {
		defer initWG.Done()
		for i := 1; i <= 100; i++ {
			background += i
		}
	}()
}

func init() {
	order = append(order, "init 2")
	go func() {
		greeting <- "hello from init 2"
	}()
}

func main() {
	order = append(order, "main")
	fmt.Println("order:", order)

	var ps []int
	for p := range primes {
		ps = append(ps, p)
	}
	fmt.Println("primes:", ps)
	fmt.Println("table:", table)

	initWG.Wait()
	fmt.Println("background:", background)
	fmt.Println(<-greeting)
}
