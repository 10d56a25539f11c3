// A sync.Pool's Get and Put become rtlib's PoolGet and PoolPut, which
// call them: a Get that reuses an object a goroutine put back is charged
// as an allocation (a parallel schedule could make one) until its Put.
package main

import (
	"fmt"
	"sync"
)

var pool = sync.Pool{New: func() any { return new([64]byte) }}

func main() {
	b := pool.Get().(*[64]byte)
	b[0] = 1
	pool.Put(b)
	p := &pool
	c := p.Get().(*[64]byte)
	fmt.Println(c[0])
	p.Put(c)
}
