// A cgo file is passed through, with a warning: cgo must see the file as
// written.
package main

// int twice(int x) { return 2 * x; }
import "C"

import "fmt"

func main() {
	ch := make(chan int, 1)
	ch <- int(C.twice(21))
	fmt.Println(<-ch)
}
