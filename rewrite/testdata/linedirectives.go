// A file with //line directives of its own (generated code): positions
// keep following them.
package main

import "fmt"

func main() {
//line gen.y:100
	ch := make(chan int, 1)
	ch <- 1
//line gen.y:200
	fmt.Println(<-ch)
}
