package rtlib

import (
	"bytes"
	"testing"
)

// TestPoolSize checks poolSize on the shapes pooled objects take: the
// size of every allocation the object reaches, rounded to its size class
// and counted once, or no size for what rtlib cannot read.
func TestPoolSize(t *testing.T) {
	type rec struct {
		name string
		buf  []byte
		next *rec
	}
	shared := make([]byte, 100) // 112 with rounding
	loop := &rec{name: "abc", buf: shared}
	loop.next = loop
	buf := bytes.NewBuffer(make([]byte, 0, 4096))
	b := make([]byte, 2<<20)
	for _, tt := range []struct {
		name string
		x    any
		want int64 // -1: no size
	}{
		{"pointer to a slice", &b, 24 + 2<<20},
		{"boxed slice", make([]byte, 1000), 24 + 1024},
		{"bytes.Buffer", buf, roundSize(40) + 4096},
		{"struct reaching itself", loop, roundSize(48) + roundSize(3) + 112}, // the string counted, static or not
		{"two slices of one array", &[2][]byte{shared, shared[:10]}, 48 + 112},
		{"a map", &struct{ m map[int]int }{m: map[int]int{1: 1}}, -1},
		{"a nil map", &struct{ m map[int]int }{}, 8},
		{"an interface holding a boxed int64", &struct{ v any }{v: int64(1 << 40)}, 16 + 8},
	} {
		got, ok := poolSize(tt.x, true)
		if !ok {
			got = -1
		}
		if got != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, got, tt.want)
		}
	}
}
