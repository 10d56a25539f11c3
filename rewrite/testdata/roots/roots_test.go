package roots

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

func TestSquares(t *testing.T) {
	t.Parallel() // waits for the sequential tests: the baton is released
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if got := Squares(make([]int, n)); len(got) != n {
				t.Fatalf("got %d", len(got))
			}
		})
	}
}

func Testify() int { return 1 } // not a test: lower case after Test

func BenchmarkSquares(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Squares([]int{1, 2, 3})
		}
	})
}

func FuzzSquares(f *testing.F) {
	f.Add(3)
	f.Fuzz(func(t *testing.T, n int) {
		if n >= 0 && n < 100 {
			Squares(make([]int, n))
		}
	})
}
