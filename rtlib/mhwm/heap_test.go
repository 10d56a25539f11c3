package mhwm

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestSerialHeap checks the heap series against a walk of the program:
// every point is a state the serial run really passed through (per site),
// the points sum to their totals, the serial peak is among them and there
// are at most maxPoints of them.
func TestSerialHeap(t *testing.T) {
	for i := 0; i < programs(500); i++ {
		prog := genProgram(rand.New(rand.NewSource(int64(i))), smallConfig(i))
		live := map[Site]int64{}
		key := func() string {
			return fmt.Sprint(snapshotOf(live))
		}
		states := map[string]bool{key(): true}
		var walk func([]op)
		walk = func(b []op) {
			for _, o := range b {
				switch o.kind {
				case opAlloc:
					live[o.site] += o.n
					states[key()] = true
				case opFree:
					live[o.site] -= o.n
					states[key()] = true
				case opSpawn, opCall:
					walk(o.body)
				}
			}
		}
		walk(prog)
		for _, maxPoints := range []int{2, 3, 1000} {
			clock := int64(0)
			e, _ := New(Config{P: 2, Attribution: true, Clock: func() int64 { clock++; return clock }})
			res, err := run(e, prog)
			if err != nil {
				t.Fatal(err)
			}
			pts, byteTime, ok := res.SerialHeap(maxPoints)
			if !ok {
				t.Fatalf("program %d: no heap series", i)
			}
			if len(pts) > 2*maxPoints {
				t.Fatalf("program %d: %d points for at most %d intervals", i, len(pts), maxPoints)
			}
			var top, lastStrand int64
			for _, p := range pts {
				m := map[Site]int64{}
				sum := int64(0)
				for _, sb := range p.Sites {
					m[sb.Site] = sb.Bytes
					sum += sb.Bytes
				}
				if sum != p.Bytes {
					t.Fatalf("program %d: point %+v sums to %d", i, p, sum)
				}
				if !states[fmt.Sprint(snapshotOf(m))] {
					t.Fatalf("program %d (%s): point %+v is no state of the serial run", i, bodyString(prog), p)
				}
				if p.Strand < lastStrand {
					t.Fatalf("program %d: points out of order", i)
				}
				lastStrand = p.Strand
				top = max(top, p.Bytes)
			}
			if len(pts) > 0 && top != res.SerialPeak || byteTime < 0 {
				t.Fatalf("program %d: largest point %d, serial peak %d; byte-time %v", i, top, res.SerialPeak, byteTime)
			}
		}
	}
}

// snapshotOf returns m's non-zero entries in site order.
func snapshotOf(m map[Site]int64) []SiteBytes {
	var out []SiteBytes
	for s := Site(0); s < 64; s++ {
		if m[s] != 0 {
			out = append(out, SiteBytes{s, m[s]})
		}
	}
	return out
}

// TestSerialHeapByteTime checks the byte-time integral on hand-computed
// runs: the clock ticks once per strand end, the heap is linear between
// strand ends.
func TestSerialHeapByteTime(t *testing.T) {
	for _, tt := range []struct {
		name string
		body []op
		want float64
	}{
		// One strand from 0 to 1 going from 0 to 1000 bytes.
		{"one strand", []op{{kind: opAlloc, site: 1, n: 1000}}, 500},
		// Strands end at 1 (1000 live), 2 (child: 1010), 3 (after the
		// sync: 1010), 4 (exit: 1010).
		{"spawn", []op{{kind: opAlloc, site: 1, n: 1000}, {kind: opSpawn, body: []op{{kind: opAlloc, site: 2, n: 10}}}, {kind: opSync}}, 500 + 1005 + 1010 + 1010},
	} {
		clock := int64(0)
		e, _ := New(Config{P: 2, Attribution: true, Clock: func() int64 { clock++; return clock }})
		res, err := run(e, tt.body)
		if err != nil {
			t.Fatal(err)
		}
		if _, got, _ := res.SerialHeap(10); got != tt.want {
			t.Errorf("%s: byte-time %v, want %v", tt.name, got, tt.want)
		}
	}
}
