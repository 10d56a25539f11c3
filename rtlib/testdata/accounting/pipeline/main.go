// Pipeline: a producer sends K items of I bytes over an unbuffered
// channel to a stage that transforms each into a new item of I bytes and
// sends it on to main, which drops it. At most a few items are live at
// once in any schedule (the channel edges order them); the
// series-parallel relaxation spgo computes drops those edges, so its
// figures are upper bounds, marked inexact: about every item allocated,
// (2·K·I), since the items die in a goroutine parallel to the one that
// made them and their frees wait for the join.
package main

import "fmt"

const (
	K = 32
	I = 64 << 10
)

func main() {
	src := make(chan []byte)
	dst := make(chan []byte)
	go func() {
		for i := range K {
			b := make([]byte, I)
			b[0] = byte(i)
			src <- b
		}
		close(src)
	}()
	go func() {
		for b := range src {
			c := make([]byte, I)
			c[0] = b[0] + 1
			dst <- c
		}
		close(dst)
	}()
	sum := 0
	for c := range dst {
		sum += int(c[0])
	}
	fmt.Println(sum)
}
