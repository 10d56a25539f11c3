// Command b shares the compiler's log directory "main" with the other
// command of this module.
package main

func words(n int) int {
	w := make([]uint64, n)
	return len(w)
}

func main() { println(words(1 << 20)) }
