package rtlib

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"weak"
)

// TestPoolsDrain: a collection between a census's drain and refill leaves
// a pool as it was. Its Gets return the same objects in the same order
// as those of a pool that saw no collection, and New does not run. The
// census's prune then keeps what rtlib knows of the objects still
// pooled, and forgets one that died (dropped by a collection outside
// rtlib's), with its released bytes.
func TestPoolsDrain(t *testing.T) {
	if raceEnabled {
		t.Skip("under the race detector, Put drops objects at random")
	}
	savedIn, savedHeld, savedKnown := pools.in, pools.held, poolsKnown
	defer func() { pools.in, pools.held, poolsKnown = savedIn, savedHeld, savedKnown }()
	pools.in = newTable[uintptr, poolIn](poolHash)
	poolsKnown.at, poolsKnown.all = newTable[uintptr, struct{}](poolHash), nil

	objs := make([]*[64]byte, 5)
	for i := range objs {
		objs[i] = new([64]byte)
		objs[i][0] = byte(i)
	}
	news := 0
	fill := func(p *sync.Pool) {
		p.New = func() any { news++; return new([64]byte) }
		for _, o := range objs {
			p.Put(o)
		}
	}
	order := func(p *sync.Pool) (got []byte) {
		for range objs {
			got = append(got, p.Get().(*[64]byte)[0])
		}
		return got
	}
	var plain, drained sync.Pool
	fill(&plain)
	want := order(&plain)

	fill(&drained)
	poolKnow(&drained)
	know := func(x *[64]byte, rel int64) {
		k := dataWord(any(x))
		heldPut(&pools.in, k, poolIn{n: 64, rel: rel, wp: weak.Make((*byte)(heapAddr(k)))})
		pools.held += rel
	}
	pools.held = 0
	know(objs[1], 64)
	poolTestSink = new([64]byte) // on the heap
	know(poolTestSink, 32)       // known to rtlib, but no longer in its pool
	poolTestSink = nil
	ds := poolsDrain()
	runtime.GC()
	runtime.GC()
	poolsRefill(ds)
	poolsPrune()
	if got := order(&drained); !slices.Equal(got, want) {
		t.Errorf("Gets after a drained collection return %v, without a collection %v", got, want)
	}
	if news != 0 {
		t.Errorf("New ran %d times", news)
	}
	if _, ok := pools.in.get(dataWord(any(objs[1]))); !ok || pools.in.len() != 1 || pools.held != 64 {
		t.Errorf("after the census rtlib knows %d objects (the one still pooled: %v), %d bytes held; want 1, true, 64", pools.in.len(), ok, pools.held)
	}
}

// poolTestSink moves an object of TestPoolsDrain to the heap.
var poolTestSink *[64]byte
