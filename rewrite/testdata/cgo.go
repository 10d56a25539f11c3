// A cgo file is rewritten from its source as written (cgo must see it),
// type-checked with C's names unknown: the send of a conversion of
// C.twice's result is typed, and instrumented.
package main

// int twice(int x) { return 2 * x; }
import "C"

import "fmt"

func main() {
	ch := make(chan int, 1)
	ch <- int(C.twice(21))
	fmt.Println(<-ch)
}
