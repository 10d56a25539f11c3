// Program wgforeign exercises WaitGroup Done calls that the rewriter does
// not see, so that rtlib's mirror of the counter never reaches zero.
//
// Constructs:
//   - wg.Done as a function value: passed to time.AfterFunc, stored in a
//     variable and called by a go statement (done := wg.Done; go done()),
//     passed to a function that calls it (go run(wg.Done)), and called
//     through reflect (reflect.ValueOf(wg.Done).Call(nil));
//   - a package that is not instrumented (wgforeign/dep) calling Done on
//     a *sync.WaitGroup passed to it, in a go statement and from
//     goroutines of its own, mixed with Done calls the rewriter sees;
//   - a WaitGroup reused after such a Wait, with Done calls the rewriter
//     sees;
//   - every Wait returns once the counter is zero, as in the original:
//     no false "all goroutines are asleep - deadlock!".
package main

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/spgo/spgo/rewrite/testdata/corpus/wgforeign/dep"
)

func run(f func()) { f() }

func main() {
	var wg sync.WaitGroup

	wg.Add(1)
	time.AfterFunc(time.Millisecond, wg.Done)
	wg.Wait()
	fmt.Println("after AfterFunc")

	wg.Add(1)
	done := wg.Done
	go done()
	wg.Wait()
	fmt.Println("after a method value")

	wg.Add(1)
	go run(wg.Done)
	wg.Wait()
	fmt.Println("after a function argument")

	wg.Add(1)
	go func() { reflect.ValueOf(wg.Done).Call(nil) }()
	wg.Wait()
	fmt.Println("after reflect")

	squares := make([]int, 4)
	wg.Add(len(squares))
	for i := range squares {
		go dep.Square(&wg, i+1, &squares[i])
	}
	wg.Wait()
	fmt.Println("squares", squares)

	wg.Add(5)
	dep.Later(wg.Done)
	dep.DoneAll(&wg, 3)
	go func() {
		defer wg.Done()
		fmt.Println("a Done the rewriter sees")
	}()
	wg.Wait()
	fmt.Println("after the dependency's goroutines")

	// Reused, with Done calls the rewriter sees only.
	sum := make([]int, 3)
	for i := range sum {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sum[i] = i * 10
		}()
	}
	wg.Wait()
	fmt.Println("reused", sum)
}
