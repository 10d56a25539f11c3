// Tiny: one long strand allocates K small objects of B bytes, each dead
// at once, while a buffer of H bytes stays live; no goroutines. The true
// MHWM_p is H plus one object, for every p.
package main

import "fmt"

const (
	H = 1 << 20
	K = 200000
	B = 64
)

type obj struct{ a [B / 8]int64 }

var keep *obj

func main() {
	hold := make([]byte, H)
	sum := int64(0)
	for i := range K {
		o := new(obj)
		o.a[i%len(o.a)] = int64(i)
		keep = o
		sum += o.a[0]
	}
	hold[0] = 1
	fmt.Println(sum, hold[0])
}
