// Hooked operations whose operands do not have the types a hook's type
// parameters would be inferred from (issue 22): values of named function
// types and concrete values on channels of func() and of interfaces,
// named channel, slice and string types, untyped constants and nil,
// untyped boolean and shift expressions as go arguments and select
// values, generic functions as values, comma-ok into a named bool, and
// channels and slices of type-parameter types.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

type Callback func()
type callbackCh chan func()
type label string
type flag bool
type bits uint8

func hello() { fmt.Println("hello") }

func ident[T any](x T) T { return x }

var chans = []chan error{make(chan error, 1)}

func pick() int { return 0 }

// keep makes values escape, so that their allocations are hooked.
var keep []any

func errors2() []error { return nil }

// point's underlying type is a struct type the rewriter does not name.
type point struct{ x int }

var pointc = make(chan struct{ x int }, 2)

func points() chan struct{ x int } { return pointc }

func structs() []struct{ x int } { return nil }

func show(wg *sync.WaitGroup, f flag, b bits, g func(int) int) {
	defer wg.Done()
	fmt.Println(f, b, g(2))
}

func generic[C ~chan E, S ~[]E, E any](c C, s S, e E) S {
	c <- e
	s = append(s, <-c)
	return s
}

func main() {
	ch := make(callbackCh, 2)
	var cb Callback = hello
	ch <- cb
	ch <- hello
	(<-ch)()
	(<-ch)()

	errc := make(chan error, 3)
	errc <- &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}
	errc <- nil
	e := errors.New("plain")
	errc <- e
	fmt.Println(<-errc, <-errc, <-errc)
	chans[pick()] <- &fs.PathError{Op: "stat", Path: "y", Err: fs.ErrExist}
	fmt.Println(<-chans[0])
	pointc <- point{1}
	points() <- point{2}
	fmt.Println(<-pointc, <-pointc)
	keep = append(keep, append(structs(), point{3}))

	anyc := make(chan any, 2)
	n := 3
	anyc <- n
	anyc <- n == 3
	var ok flag
	var v any
	v, ok = <-anyc
	fmt.Println(v, ok)
	flags := make(chan flag, 1)
	flags <- true
	var f1, f2 flag = <-flags
	fmt.Println(f1, f2)

	var errs []error
	errs = append(errs, &fs.PathError{Op: "read", Path: "z", Err: fs.ErrClosed}, nil, e)
	fns := append([]func(){}, cb, hello)
	var ls []label
	ls = append(ls, "a", label("b"))
	fmt.Println(len(errs), len(fns), ls)
	keep = append(keep, errs, fns, ls)
	keep = append(keep, append(errors2(), e))

	b := []byte("x")
	lb := label("yz")
	b = append(b, lb...)
	lb2 := lb + label(b)
	lb2 += lb
	fmt.Println(string(b), lb2)
	keep = append(keep, b, lb2, label(b))
	pe := &fs.PathError{Op: "post", Path: "w", Err: fs.ErrInvalid}
	for i := 0; i < 1; chans[pick()] <- pe {
		i++
	}
	fmt.Println(<-chans[0])
	for i := 0; i < 1; points() <- (point{4}) {
		i++
	}
	fmt.Println(<-pointc)

	var wg sync.WaitGroup
	wg.Add(1)
	go show(&wg, n == 3, 1<<n, ident)
	wg.Wait()

	fc := make(chan func(int) int, 1)
	bc := make(chan bits, 1)
	fl := make(chan flag, 1)
	select {
	case fc <- ident[int]:
	case bc <- 1 << n:
	case fl <- n > 2:
	}
	select {
	case v, ok = <-anyc:
		fmt.Println(v, ok)
	case f := <-fc:
		fmt.Println(f(1))
	case x := <-bc:
		fmt.Println(x)
	case y := <-fl:
		fmt.Println(y)
	}
	fmt.Println(generic(make(chan label, 1), []label{"p"}, "q"))
}
