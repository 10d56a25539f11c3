// Program multifile exercises a package main split over several files.
//
// Constructs:
//   - main.go (this file) and worker.go in the same package: a type, its
//     methods and a spawning function defined in worker.go and used here;
//   - a package-level variable declared in worker.go and written by
//     goroutines started from main.go;
//   - ignored.go, excluded by a //go:build ignore constraint; it declares a
//     second func main and would not compile with the rest, so it must be
//     left out (and left alone) by any tool that processes this package.
package main

import "fmt"

func main() {
	p := newPool(3)
	for _, s := range []string{"one", "two", "three", "four", "five", "six", "seven"} {
		p.submit(s)
	}
	for _, r := range p.finish() {
		fmt.Println(r)
	}
	fmt.Println("processed:", processed.Load())
}
