// Program allocs exercises heap allocations of every kind, in goroutines and
// in main.
//
// Constructs:
//   - make of slices, maps and channels; new(T); &T{...};
//   - slice, map and struct composite literals;
//   - append growth in a loop;
//   - string concatenation (a + b, s += t) and fmt.Sprintf;
//   - conversions []byte(s), string(b), []rune(s), string(runes);
//   - a local variable whose address escapes (returned, and captured by a
//     goroutine);
//   - a large array (new([1 << 16]int) and a local [1 << 14]int);
//   - closures allocated per iteration;
//   - checksums of everything, printed from main in a fixed order.
package main

import (
	"fmt"
	"hash/fnv"
	"sync"
)

type node struct {
	val  int
	next *node
}

func escape(v int) *int {
	x := v * 3 // moved to the heap: its address is returned
	return &x
}

func checksum(parts ...[]byte) uint32 {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum32()
}

func work(id int) uint32 {
	xs := make([]int, 0, 2)
	for i := range 100 + id {
		xs = append(xs, i*id)
	}
	m := make(map[string]int, 4)
	m["id"] = id
	lit := map[int]string{1: "one", 2: "two"}
	ch := make(chan int, 1)
	ch <- len(xs)
	p := new(int)
	*p = <-ch
	list := &node{val: id}
	for i := range 5 {
		list = &node{val: i, next: list}
	}
	sum := 0
	for n := list; n != nil; n = n.next {
		sum += n.val
	}
	pair := struct {
		a, b int
	}{a: *p, b: sum}

	s := "worker"
	s += "-" + lit[1+id%2]
	for _, x := range []int{m["id"], pair.a, pair.b} {
		s += fmt.Sprintf(":%d", x)
	}
	b := []byte(s)
	runes := []rune(s + "é")
	back := string(b) + string(runes[len(runes)-1:])
	return checksum(b, []byte(back), []byte(fmt.Sprint(xs[len(xs)-1])))
}

func main() {
	sums := make([]uint32, 6)
	var wg sync.WaitGroup
	for id := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[id] = work(id)
		}()
	}

	shared := escape(7) // captured by the goroutine below
	big := new([1 << 16]int)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var local [1 << 14]int
		for i := range local {
			local[i] = i % 7
		}
		for i := range big {
			big[i] = local[i%len(local)] + *shared
		}
	}()
	wg.Wait()

	total := 0
	for _, v := range big {
		total += v
	}
	fmt.Printf("worker checksums: %08x\n", sums)
	fmt.Println("escaped:", *shared, "big total:", total)

	funcs := make([]func() int, 0, 3)
	for i := range 3 {
		funcs = append(funcs, func() int { return i * *shared })
	}
	text := ""
	for _, f := range funcs {
		text = text + fmt.Sprint(f()) + ","
	}
	fmt.Println("closures:", text)
	fmt.Println("runes:", len([]rune("héllo, wörld")), "bytes:", len([]byte("héllo, wörld")))
}
