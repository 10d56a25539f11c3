// Rewait: a goroutine spawns K workers into a WaitGroup and waits for
// them; main waits for that goroutine, then waits on the workers'
// WaitGroup again, which has nothing left to join. Each worker holds U
// bytes while it runs: MHWM_p = min(p, K)·U, serial peak U, exact (the
// second Wait joins nobody's goroutines).
package main

import (
	"fmt"
	"sync"
)

const (
	K = 4
	U = 1 << 20
)

var sums [K]int

func main() {
	var workers, starter sync.WaitGroup
	starter.Add(1)
	go func() {
		defer starter.Done()
		for i := range K {
			workers.Add(1)
			go func() {
				defer workers.Done()
				buf := make([]byte, U)
				for j := range buf {
					buf[j] = byte(i + j)
				}
				sums[i] = int(buf[i]) + int(buf[U-1])
			}()
		}
		workers.Wait()
	}()
	starter.Wait()
	workers.Wait()
	fmt.Println(sums)
}
