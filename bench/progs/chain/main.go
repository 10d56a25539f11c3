// Chain finds the first n primes with a chain of filter goroutines (the
// concurrent prime sieve): a generator sends 2, 3, 4, … down an
// unbuffered channel, each prime found starts one more goroutine that
// passes on the numbers its prime does not divide, and the last link of
// the chain prints nothing but hands the next prime to main. It prints
// the count and the sum of the primes.
//
// What it stresses: hand-offs, not memory. Every number crosses every
// link up to its smallest prime factor, each crossing an unbuffered send
// and receive between two goroutines (a baton switch under spgo), and
// the chain grows to n goroutines that stay alive to the end: with -n
// 2500 about 3.2·10^6 hand-offs and 2,500 goroutines. It allocates
// little: a channel and a closure per link.
//
// Channels make the program not series-parallel, so spgo's figures are
// the series-parallel relaxation's bound and not exact; the goroutines
// are joined with a WaitGroup after the generator is told to stop and
// every link closes its output, so the run ends with nothing running.
//
// Test size: -n 200 runs in about 10 ms.
package main

import (
	"flag"
	"fmt"
	"sync"
)

// generate sends 2, 3, 4, … on out until stop is closed, then closes out.
func generate(out chan<- int, stop <-chan struct{}) {
	defer close(out)
	for i := 2; ; i++ {
		select {
		case out <- i:
		case <-stop:
			return
		}
	}
}

// filter passes on what it receives from in that prime does not divide,
// and closes out when in is closed.
func filter(in <-chan int, out chan<- int, prime int) {
	defer close(out)
	for v := range in {
		if v%prime != 0 {
			out <- v
		}
	}
}

// sieve returns the first n primes.
func sieve(n int) []int {
	var wg sync.WaitGroup
	stop := make(chan struct{})
	ch := make(chan int)
	wg.Go(func() { generate(ch, stop) })
	primes := make([]int, 0, n)
	for len(primes) < n {
		prime := <-ch
		primes = append(primes, prime)
		in, out := ch, make(chan int)
		wg.Go(func() { filter(in, out, prime) })
		ch = out
	}
	close(stop)
	for range ch { // drain what was in flight: every link then closes
	}
	wg.Wait()
	return primes
}

func main() {
	n := flag.Int("n", 2500, "how many primes")
	flag.Parse()
	primes := sieve(*n)
	sum := 0
	for _, p := range primes {
		sum += p
	}
	fmt.Printf("chain: %d primes, last %d, sum %d\n", len(primes), primes[len(primes)-1], sum)
}
