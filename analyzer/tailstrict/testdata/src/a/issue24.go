package a

import "sync"

// Issue 24: a drain-then-emit stage with a length check and a go
// statement between its two loops is still tail-strict.
func stageChecked(in <-chan []byte, out chan<- []byte, wg *sync.WaitGroup) {
	var buf [][]byte
	for b := range in { // want `tailstrict: this stage drains its whole input \(channel in\) into buf before emitting anything`
		buf = append(buf, b)
	}
	if len(buf) == 0 {
		close(out)
		return
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	for _, b := range buf {
		out <- b
	}
}

// The length sized into something else: still only its length.
func stageCounted(in <-chan int, out chan<- int, counts chan<- int) {
	var buf []int
	for x := range in { // want `tailstrict: this stage drains`
		buf = append(buf, x)
	}
	n := len(buf)
	for _, x := range buf {
		out <- x
	}
	_ = n
}

// A lock released between the loops is still a release: quiet.
func stageUnlocked(mu *sync.Mutex, in <-chan int, out chan<- int) {
	var buf []int
	mu.Lock()
	for x := range in {
		buf = append(buf, x)
	}
	mu.Unlock()
	for _, x := range buf {
		out <- x
	}
}
