// Program externalcalls exercises the rtlib.At markers the rewriter puts
// before statements that call uninstrumented code, where a marker could
// change meaning if misplaced.
//
// Constructs:
//   - goto backward and forward to labels of statements that call the
//     standard library (the marker goes before the label);
//   - labelled continue and break out of a for loop whose condition and
//     post statement call strconv, and a switch whose tag and case
//     expressions call strings with side effects counted in order;
//   - an if with an init statement and an else-if chain whose conditions
//     call the standard library, evaluated lazily;
//   - defer and go with operands calling the standard library (evaluated
//     at the statement), closures with their own calls, interface method
//     calls, a select whose send operand calls strings;
//   - bytes.Repeat in goroutines of a WaitGroup after an instrumented
//     allocation.
package main

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

var trace []string

// note records that an expression was evaluated and returns s.
func note(s string) string {
	trace = append(trace, s)
	return s
}

type namer interface{ name() string }

type dog struct{}

func (dog) name() string { return strings.ToUpper("dog") }

func gotos() int {
	n := 0
again:
	n += len(strconv.Itoa(n))
	if n < 5 {
		goto again
	}
	if strings.HasPrefix("xy", "x") {
		goto done
	}
	n = -1
done:
	fmt.Println("gotos", n, strings.Repeat("-", n))
	return n
}

func loops() {
	count := 0
outer:
	for i := 0; strconv.Itoa(i) != "7"; i, _ = strconv.Atoi(strconv.Itoa(i + 1)) {
		for j := range 3 {
			switch note(strconv.Itoa(i + 2*j)) {
			case note("0"):
				continue outer
			case note(strings.Repeat("2", 1)), note("4"):
				count += 10
			case note("6"):
				break outer
			}
			count++
		}
	}
	fmt.Println("loops", count, strings.Join(trace, ","))
	trace = trace[:0]
}

func branches(s string) string {
	if v, err := strconv.Atoi(note(s)); err == nil {
		return "int " + strconv.Itoa(v)
	} else if strings.HasPrefix(note(s), "x") {
		return "x"
	} else if f, err := strconv.ParseFloat(note(s), 64); err == nil {
		return "float " + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "other"
}

func deferred() (out string) {
	defer func() { out += "|" + strings.ToLower("CLOSURE") }()
	defer fmt.Println("deferred", note(strconv.Quote("arg")))
	note("body")
	return "ret"
}

func main() {
	gotos()
	loops()
	for _, s := range []string{"12", "x1", "2.5", "?"} {
		fmt.Println("branch", branches(s))
	}
	fmt.Println(strings.Join(trace, ","))
	trace = trace[:0]
	fmt.Println(deferred(), strings.Join(trace, ","))
	trace = trace[:0]

	var ns []namer = []namer{dog{}, dog{}}
	for _, n := range ns {
		fmt.Println(n.name())
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	lens := make([]int, 0, 4)
	for i := range 4 {
		wg.Add(1)
		go func(tag string) {
			defer wg.Done()
			head := make([]byte, 64<<10)
			head[0] = byte(i + 1)
			body := bytes.Repeat(head[:1], 1<<20)
			mu.Lock()
			lens = append(lens, len(body)+int(body[len(body)-1])+len(tag))
			mu.Unlock()
		}(strconv.Itoa(i))
	}
	wg.Wait()
	sort.Ints(lens)
	fmt.Println(lens)

	ch := make(chan string, 1)
	select {
	case ch <- strings.TrimSpace("  sent  "):
	}
	fmt.Println(<-ch)
}
