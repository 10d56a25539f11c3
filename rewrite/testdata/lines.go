// Line mapping (issue 22): every node of the original file must map back
// to its own line through the //line and /*line*/ directives of the
// output, so that compile errors and stack traces name the user's line.
// Constructs whose rewrite moves operands onto generated lines: go
// statements and calls with arguments over several lines, selects whose
// operands come from several cases, sends and composite literals over
// several lines, hooks nested in arguments.
package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

type pair struct {
	a, b []int
}

func sum(xs []int, ys ...[]int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n + len(ys)
}

func main() {
	var wg sync.WaitGroup
	res := make(chan int, 4)
	wg.Add(1)
	go func(xs []int,
		name string,
		ys []int) {
		defer wg.Done()
		res <- sum(xs, ys) + len(name)
	}(make([]int, 3),
		strings.Repeat("x",
			2),
		[]int{1, 2})
	wg.Wait()

	p := &pair{
		a: make([]int, 2),
		b: append([]int{},
			<-res,
		),
	}
	errc := make(chan error, 1)
	errc <- errors.Join(
		errors.New("a"),
		fmt.Errorf("b %d", len(p.b)),
	)
	quit := make(chan struct{})
	close(quit)
	select {
	case err := <-errc:
		fmt.Println(err)
	case res <- sum(
		p.a,
		p.b,
	):
	case <-quit:
	}
	fmt.Println(sum(p.a,
		p.b,
		[]int{len(res)}),
		len(p.b))
}
