//go:build ignore

// This file is excluded from the build by the constraint above. It declares
// a second func main (and redeclares newPool), so the package would not
// compile if it were included.
package main

import "fmt"

func newPool(n int) int { return n }

func main() {
	fmt.Println("ignored.go must never be built:", newPool(1))
	go fmt.Println("a go statement in an ignored file")
}
