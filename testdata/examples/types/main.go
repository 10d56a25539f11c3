// Types runs Tasks tasks at once. Each holds, while it works, values of
// three types: a []byte of Bytes bytes, a []int64 of Ints elements and a
// *block (Block bytes); it returns a string of Text bytes, which main
// keeps until every task is done. It is the example of the by-type
// reports (spreport show -by type).
//
// Analytic MHWM: p processors run at most min(p, Tasks) tasks at once,
// each holding its three values at its peak, and every string may be
// kept by then:
//
//	MHWM_p = Tasks·Text + min(p, Tasks)·(Bytes + 8·Ints + Block)
//
// Each type's share of MHWM_p is its own term: with Tasks = 4, Bytes =
// 1 MiB, Ints = 64 Ki (512 KiB), Block = 256 KiB and Text = 128 KiB,
// MHWM_1 = 2.25 MiB (string 512 KiB, []byte 1 MiB, []int64 512 KiB,
// *main.block 256 KiB) and from p = 4 on MHWM_p = 7.5 MiB (string 512
// KiB, []byte 4 MiB, []int64 2 MiB, *main.block 1 MiB). The goroutines'
// descriptors (480 bytes each, "(goroutine)") add less than 2 KiB. The
// serial run's peak is MHWM_1.
package main

import (
	"fmt"
	"sync"
)

const (
	Tasks = 4
	Bytes = 1 << 20
	Ints  = 64 << 10
	Block = 256 << 10
	Text  = 128 << 10
)

// block is a value of Block bytes allocated with new.
type block struct {
	data [Block]byte
}

// work allocates the values of task t and returns its text and a
// checksum of the other values, which stay live until after the text
// is made.
func work(t int) (string, int64) {
	buf := make([]byte, Bytes)
	for i := range buf {
		buf[i] = byte(i + t)
	}
	nums := make([]int64, Ints)
	for i := range nums {
		nums[i] = int64(i * t)
	}
	b := new(block)
	for i := range b.data {
		b.data[i] = byte(i ^ t)
	}
	text := string(buf[:Text])
	var sum int64
	for i := 0; i < Text; i += 4096 {
		sum += int64(buf[i]) + nums[i/2] + int64(b.data[i])
	}
	return text, sum
}

func main() {
	var wg sync.WaitGroup
	texts := make([]string, Tasks)
	sums := make([]int64, Tasks)
	for t := range Tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts[t], sums[t] = work(t)
		}()
	}
	wg.Wait()
	var sum int64
	for t, s := range texts {
		sum += sums[t]
		for i := 0; i < len(s); i += 4096 {
			sum += int64(s[i])
		}
	}
	fmt.Println("checksum:", sum)
}
