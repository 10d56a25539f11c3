// Program gotolabels exercises goto statements and labels next to channel
// operations.
//
// Constructs:
//   - a receive loop built from a label, a single-case select and goto
//     (goto back to the select, goto forward past a draining loop);
//   - a labelled for-range over a channel left with break from inside a
//     switch, the producer stopped through a done channel;
//   - a labelled continue out of a select nested in a range over a channel;
//   - a retry loop written with goto that spawns a goroutine per attempt.
package main

import (
	"errors"
	"fmt"
)

func produce(vals ...int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for _, v := range vals {
			ch <- v
		}
	}()
	return ch
}

func consume(ch <-chan int) (sum, stoppedAt int) {
	stoppedAt = -1
next:
	select {
	case v, ok := <-ch:
		if !ok {
			goto done
		}
		if v < 0 {
			stoppedAt = v
			goto drain
		}
		sum += v
		goto next
	}
drain:
	for range ch {
	}
done:
	return sum, stoppedAt
}

func firstEven(vals []int) int {
	ch := make(chan int)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for _, v := range vals {
			select {
			case ch <- v:
			case <-stop:
				return
			}
		}
		close(ch)
	}()
	found := -1
search:
	for v := range ch {
		switch {
		case v%2 == 0:
			found = v
			break search
		}
	}
	return found
}

func skipOdd(ch <-chan int) []int {
	var kept []int
	extra := make(chan int, 1)
items:
	for v := range ch {
		extra <- v * 10
		select {
		case w := <-extra:
			if v%2 != 0 {
				continue items
			}
			kept = append(kept, w)
		}
	}
	return kept
}

var errTransient = errors.New("transient failure")

func retry(failures int) (attempts int, err error) {
	results := make(chan error)
again:
	attempts++
	go func(n int) {
		if n <= failures {
			results <- fmt.Errorf("attempt %d: %w", n, errTransient)
			return
		}
		results <- nil
	}(attempts)
	if err = <-results; err != nil {
		fmt.Println("retrying after:", err)
		if attempts < 5 {
			goto again
		}
	}
	return attempts, err
}

func main() {
	fmt.Println(consume(produce(1, 2, 3)))
	fmt.Println(consume(produce(4, 5, -6, 7, 8)))
	fmt.Println("first even:", firstEven([]int{3, 5, 8, 9, 10}))
	fmt.Println("first even:", firstEven([]int{1, 3}))
	fmt.Println("kept:", skipOdd(produce(1, 2, 3, 4, 5, 6)))
	fmt.Println(retry(2))
	fmt.Println(retry(7))
}
