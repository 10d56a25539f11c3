// Program typedvalues exercises hooked operations on values whose types
// differ from the types a hook would infer (issue 22).
//
// Constructs:
//   - a Callback (type Callback func()) and a function name sent on a
//     channel of a named type of chan func(), as sourcegraph/conc's
//     stream does;
//   - *fs.PathError, nil and an error sent on a chan error, an int and an
//     untyped boolean on a chan any, a value of a named struct type on a
//     channel of an unnamed struct type returned by a call, in a statement
//     and in a for loop's post statement;
//   - a comma-ok receive into a named boolean type, in an assignment and in
//     a select;
//   - appends of concrete values to []error and []any, of a Callback to
//     []func(), of a named string spread into []byte;
//   - the order of evaluation the compiler gives append and send: the
//     slice and the channel variable are read after the calls among the
//     values, which change them;
//   - concatenation, conversion and += of a named string type, whose
//     dynamic types are printed;
//   - untyped boolean and shift expressions as go arguments and select
//     values of named types, a generic function as a go argument;
//   - channels and slices of type-parameter types — exit 0
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

type node interface{ id() int }
type leaf int
type inner struct{ n int }

func (l leaf) id() int   { return int(l) }
func (i *inner) id() int { return i.n }

var nodes []node

// build appends leaves to nodes before the caller's append reads it.
func build(n int) int {
	for i := 0; i < n; i++ {
		nodes = append(nodes, leaf(i))
	}
	return len(nodes)
}

var errc = make(chan error, 4)
var other = make(chan error, 4)

// redirect makes errc the other channel before the caller's send reads it.
func redirect() *fs.PathError {
	errc = other
	return &fs.PathError{Op: "redirect", Path: "r", Err: fs.ErrInvalid}
}

type point struct{ x int }

var pointc = make(chan struct{ x int }, 2)

func points() chan struct{ x int } { return pointc }

func hello() { fmt.Println("hello") }

func ident[T any](x T) T { return x }

func show(wg *sync.WaitGroup, f flag, b bits, g func(int) int) {
	defer wg.Done()
	fmt.Printf("%T %v %T %v %d\n", f, f, b, b, g(2))
}

func pipe[C ~chan E, S ~[]E, E any](c C, s S, e E) S {
	c <- e
	return append(s, <-c)
}

func main() {
	ch := make(callbackCh, 2)
	var cb Callback = hello
	ch <- cb
	ch <- hello
	(<-ch)()
	(<-ch)()

	errc <- &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}
	errc <- nil
	errc <- errors.New("plain")
	fmt.Println(<-errc, <-errc, <-errc)
	errc <- redirect()
	fmt.Println(len(errc), len(other), <-other)

	points() <- point{1}
	for i := 0; i < 1; points() <- (point{2}) {
		i++
	}
	fmt.Println(<-pointc, <-pointc)

	anyc := make(chan any, 4)
	n := 3
	anyc <- n
	anyc <- n == 3
	var ok flag
	var v any
	v, ok = <-anyc
	fmt.Printf("%v %T %v\n", v, ok, ok)

	var errs []error
	for i := 0; i < 3; i++ {
		errs = append(errs, &fs.PathError{Op: "read", Path: fmt.Sprint(i), Err: fs.ErrClosed}, nil)
	}
	fns := append([]func(){}, cb, hello)
	for _, f := range fns {
		f()
	}
	var all []any
	all = append(all, n, "s", ok, label("l"))
	fmt.Println(len(errs), errs[0], all)

	nodes = append(nodes, &inner{n: build(3)})
	for _, x := range nodes {
		fmt.Print(x.id(), " ")
	}
	fmt.Println()

	b := []byte("x")
	lb := label("yz")
	b = append(b, lb...)
	lb2 := lb + label(b)
	lb2 += lb
	var shown any = label(b)
	fmt.Printf("%s %T %v %T %v\n", b, lb2, lb2, shown, shown)

	var wg sync.WaitGroup
	wg.Add(1)
	go show(&wg, n == 3, 1<<n, ident)
	wg.Wait()

	bc := make(chan bits, 1)
	fl := make(chan flag, 1)
	var nilBits chan bits // never ready: each select has one case that is
	var nilFlag chan flag
	select {
	case bc <- 1 << n:
	case nilFlag <- n > 2:
	}
	select {
	case fl <- n > 2:
	case nilBits <- 1 << n:
	}
	select {
	case x := <-bc:
		fmt.Printf("%T %v\n", x, x)
	case y := <-nilFlag:
		fmt.Println("nil", y)
	}
	select {
	case y := <-fl:
		fmt.Printf("%T %v\n", y, y)
	case x := <-nilBits:
		fmt.Println("nil", x)
	}
	for i := 0; i < 2; i++ {
		select {
		case v, ok = <-anyc:
			fmt.Printf("%v %T %v\n", v, ok, ok)
		case x := <-nilBits:
			fmt.Println("nil", x)
		}
		if i == 0 {
			close(anyc)
		}
	}
	fmt.Println(pipe(make(chan label, 1), []label{"p"}, "q"))
}
