// User identifiers that look like generated ones: the generated names
// must step around them.
package main

import "fmt"

var spgo_rt = "user's"

func main() {
	spgo_t := 1
	spgo_s_collide := 2
	done := make(chan int)
	go func() { done <- spgo_t + spgo_s_collide }()
	fmt.Println(<-done, spgo_rt)
}
