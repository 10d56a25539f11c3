// Program sleepers runs pools of workers whose tasks sleep, as the
// worker-pool suites of issue #22 did (100 000 tasks sleeping 100 ms on
// 1 000 workers did not finish in five minutes under spbuild).
//
// Constructs:
//   - 20 workers taking 80 tasks from a channel, each task a 100 ms
//     time.Sleep; then 10 workers taking 20 tasks, each a receive from
//     time.After(100 * time.Millisecond);
//   - a counter of tasks asleep at once, kept with sync/atomic: the
//     sleeps of a pool overlap only if a sleeping goroutine gives up the
//     baton;
//   - a time.Timer reset and a time.AfterFunc callback after the pools.
//
// It sleeps about 0.6 s in all (4 rounds of 100 ms, 2 more, and 2 ms); a
// run whose sleeps held the baton would take 10 s and print false.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// pool runs tasks tasks on workers workers, each task calling wait; it
// returns how many tasks ran and the most that waited at once.
func pool(workers, tasks int, wait func()) (done, most int32) {
	var asleep, high, n atomic.Int32
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				a := asleep.Add(1)
				for m := high.Load(); a > m && !high.CompareAndSwap(m, a); m = high.Load() {
				}
				wait()
				asleep.Add(-1)
				n.Add(1)
			}
		}()
	}
	for j := range tasks {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	return n.Load(), high.Load()
}

func main() {
	done, most := pool(20, 80, func() { time.Sleep(100 * time.Millisecond) })
	fmt.Println("time.Sleep tasks done:", done, "overlapped:", most >= 2)
	done, most = pool(10, 20, func() { <-time.After(100 * time.Millisecond) })
	fmt.Println("time.After tasks done:", done, "overlapped:", most >= 2)

	t := time.NewTimer(time.Hour)
	t.Reset(time.Millisecond)
	<-t.C
	fired := make(chan string)
	time.AfterFunc(time.Millisecond, func() { fired <- "after func fired" })
	fmt.Println(<-fired)
}
