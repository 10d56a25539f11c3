// Allocation sites: make of slices (constant and variable size), maps and
// channels; new; &T{}; slice and map literals; append growth, including
// a string spread; concatenation and s += t; conversions; values that
// stay on the stack are not hooked.
package main

import (
	"fmt"
	"strings"
)

type point struct{ x, y int }

var sink []any

func keep(v any) { sink = append(sink, v) }

func main() {
	n := len(sink) + 10
	big := make([]byte, n)
	small := make([]int, 4)
	local := make([]int, n) // does not escape: heap only past 32 bytes
	local[0] = 1
	m := make(map[string]int)
	c := make(chan int, n)
	p := new(point)
	q := &point{1, 2}
	lit := []int{1, 2, 3}
	ml := map[int]string{1: "a"}
	var grow []int
	for i := range 100 {
		grow = append(grow, i)
	}
	b := append([]byte(nil), "spread"...)
	s := "a" + strings.Repeat("b", n)
	s += fmt.Sprint(n)
	bs := []byte(s)
	rs := []rune(s)
	str := string(bs)
	keep(big)
	keep(small)
	keep(m)
	keep(c)
	keep(p)
	keep(q)
	keep(lit)
	keep(ml)
	keep(grow)
	keep(b)
	keep(s)
	keep(bs)
	keep(rs)
	keep(str)
	fmt.Println(len(sink), local[0], small[0])
}
