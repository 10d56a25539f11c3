// Variables the compiler moves to the heap: a local whose address
// escapes, a parameter, a named result, a per-iteration loop variable
// captured by a goroutine.
package main

import "fmt"

var keep []*int

func param(x int) {
	keep = append(keep, &x)
}

func result() (r int) {
	keep = append(keep, &r)
	r = 3
	return
}

func main() {
	v := 1
	keep = append(keep, &v)
	param(2)
	result()
	done := make(chan bool)
	for i := 0; i < 3; i++ {
		go func() {
			i++
			done <- true
		}()
		<-done
	}
	fmt.Println(len(keep))
}
