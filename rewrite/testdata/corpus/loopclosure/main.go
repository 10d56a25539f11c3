// Program loopclosure exercises goroutines capturing loop variables.
//
// Constructs (Go 1.22 per-iteration loop variables):
//   - for i := range 10 with a goroutine closure capturing i;
//   - for i, v := range slice with a closure capturing both;
//   - a three-clause for loop whose variable is captured by a closure and
//     also passed as an argument: go func(i int) {...}(i);
//   - range over a string (byte offset and rune) captured by goroutines;
//   - range over a channel with the received value captured;
//   - range over a function iterator (iter.Seq2) with go inside the body;
//   - a loop variable modified inside the body before it is captured.
package main

import (
	"fmt"
	"iter"
	"sync"
)

func pairs(n int) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := range n {
			if !yield(i, i*i) {
				return
			}
		}
	}
}

func main() {
	var wg sync.WaitGroup

	byInt := make([]int, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			byInt[i] = i * 10
		}()
	}
	wg.Wait()
	fmt.Println("range int:", byInt)

	names := []string{"ann", "bob", "cy"}
	greet := make([]string, len(names))
	for i, v := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			greet[i] = fmt.Sprintf("%d:%s", i, v)
		}()
	}
	wg.Wait()
	fmt.Println("range slice:", greet)

	closure := make([]int, 5)
	arg := make([]int, 5)
	for i := 0; i < 5; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			closure[i] = i
		}()
		go func(i int) {
			defer wg.Done()
			arg[i] = -i
		}(i)
	}
	wg.Wait()
	fmt.Println("three-clause:", closure, arg)

	runes := make([]string, len("héllo"))
	for off, r := range "héllo" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runes[off] = string(r)
		}()
	}
	wg.Wait()
	fmt.Printf("range string: %q\n", runes)

	ch := make(chan int, 4)
	for _, v := range []int{5, 6, 7, 8} {
		ch <- v
	}
	close(ch)
	fromChan := make([]int, 4)
	for v := range ch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fromChan[v-5] = v * v
		}()
	}
	wg.Wait()
	fmt.Println("range chan:", fromChan)

	seq := make([]int, 6)
	for i, sq := range pairs(6) {
		if i == 4 {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			seq[i] = sq
		}()
	}
	wg.Wait()
	fmt.Println("range func:", seq)

	shifted := make([]int, 4)
	for i := range 4 {
		j := i
		i += 100
		wg.Add(1)
		go func() {
			defer wg.Done()
			shifted[j] = i
		}()
	}
	wg.Wait()
	fmt.Println("modified var:", shifted)
}
