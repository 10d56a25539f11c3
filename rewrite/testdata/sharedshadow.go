// A package that declares its own true: the frame-shared hooks take
// true and false, so its variables keep the plain hooks (shared.go).
package main

import (
	"fmt"
	"sync"
)

const true = 1 == 0

func main() {
	var a int
	var wg sync.WaitGroup
	wg.Go(func() { a = 2 })
	wg.Wait()
	fmt.Println(a, true)
}
