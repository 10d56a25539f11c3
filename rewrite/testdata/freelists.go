// freelists: channels of buffers a select with a default case receives
// from are free lists: rt.ChanTry in the default case, rt.ChanGot first
// in a receive case that fired, rt.ChanSent first in a send case. Left
// alone: a channel of values that are not buffers, a receive whose value
// is dropped, a channel operand with a call, a received name that shadows
// the channel, a select whose default makes no buffer (a drain), and a
// blocking select.
package main

import "fmt"

type pool struct{ free chan *[64]byte }

var bufs = make(chan []byte, 4)

func get() []byte {
	select {
	case b := <-bufs:
		return b
	default:
		return make([]byte, 1024)
	}
}

func put(b []byte) {
	select {
	case bufs <- b:
	default:
	}
}

func (p *pool) get() *[64]byte {
	var b *[64]byte
	select {
	case b = <-p.free:
	default:
		b = new([64]byte)
	}
	return b
}

func (p *pool) put(b *[64]byte) {
	select {
	case p.free <- b:
	default:
	}
}

func chans() []chan []byte { return []chan []byte{bufs} }

func others(ints chan int) {
	select {
	case n := <-ints: // not buffers
		fmt.Println(n)
	case <-bufs: // dropped
	case b := <-chans()[0]: // a call
		fmt.Println(len(b))
	default:
	}
	var c chan []byte = bufs
	select {
	case c := <-c: // shadows the channel
		fmt.Println(len(c))
	default:
	}
	select {
	case b := <-bufs: // blocking: rtlib's Recv path
		put(b)
	}
}

func main() {
	p := &pool{free: make(chan *[64]byte, 2)}
	b := p.get()
	p.put(b)
	put(get())
	bufs <- make([]byte, 8)
	others(make(chan int))
	fmt.Println(len(p.get()))
}

// drain empties bufs without waiting: not a free list (its default
// makes no buffer).
func drain() (n int) {
	for {
		select {
		case b := <-bufs:
			n += len(b)
		default:
			return n
		}
	}
}
