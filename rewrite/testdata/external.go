// Calls to uninstrumented code get rtlib.At(site) right before their
// statement, with the site of the first such call: in a closure body, in
// an if with an init statement and its else-if chain, a switch's tag and
// cases, a case body, a labeled loop (the marker before the label), a for
// statement's header, an interface method call, the operands of go and
// defer statements and of a select. A call into an instrumented function of
// the same package, a builtin, a conversion, a function value and a
// hooked call (wg.Wait, mu.Lock) and a call of a standard function that
// neither allocates nor blocks (math.Sqrt, atomic loads, utf8.RuneLen)
// get none; utf8.AppendRune, which allocates, gets one.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

type shape interface{ area() int }

type square int

func (s square) area() int { return int(s) * int(s) }

// twice is instrumented: calling it needs no marker.
func twice(n int) int { return 2 * n }

func main() {
	x := make([]byte, 10)
	s := strings.Repeat("a", 1<<10)
	n := twice(len(x)) + len(s)
	var sh shape = square(3)
	n += sh.area()
	var w io.Writer = os.Stdout
	fmt.Fprintln(w, n)
	if v, err := strconv.Atoi("12"); err != nil {
		return
	} else if v > twice(5) {
		n += v
	} else if strings.HasPrefix(s, "b") {
		n--
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n += len(strconv.Itoa(i))
			mu.Unlock()
		}()
	}
	wg.Wait()
	f := strconv.Itoa
	b := []byte(f(n))
	_ = append(b, 'x')
	defer fmt.Println("deferred", strconv.Quote("q"))
outer:
	for i := 0; i < len(strings.Fields("a b c")); i++ {
		switch strconv.Itoa(i) {
		case "1":
			continue outer
		case strings.ToUpper("x"):
			fmt.Println("in a case body")
			break outer
		}
	}
	ch := make(chan string, 1)
	select {
	case ch <- strings.TrimSpace(" y "):
	}
	fmt.Println(<-ch, twice(n))
	var hits atomic.Int64
	for i := range 3 {
		hits.Add(int64(math.Sqrt(float64(i))))
		n += utf8.RuneLen('é')
		b = utf8.AppendRune(b, 'é')
	}
	fmt.Println(hits.Load(), n, len(b))
}
