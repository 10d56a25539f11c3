package rtlib

import (
	"fmt"
	"testing"

	"github.com/spgo/spgo/rtlib/mhwm"
)

func TestAttributedQs(t *testing.T) {
	// MHWM_q grows at every q up to 40, then stays: pmax 64.
	curve := func(pmax, sat int) *mhwm.Result {
		res := &mhwm.Result{PMax: pmax, MHWM: make([]int64, pmax+1)}
		for q := 1; q <= pmax; q++ {
			res.MHWM[q] = int64(min(q, sat))
		}
		return res
	}
	for _, tt := range []struct {
		res    *mhwm.Result
		budget int
		want   string
	}{
		{curve(64, 40), 1, "[1 2 4 8 16 32 40 64]"},
		{curve(64, 40), 10, "[1 2 3 4 5 8 16 32 40 64]"},
		{curve(64, 40), 100, fmt.Sprint(append(seq(1, 40), 64))},
		{curve(5, 5), 32, "[1 2 3 4 5]"},
		{curve(1, 1), 32, "[1]"},
		{curve(64, 1), 32, "[1 2 4 8 16 32 64]"},
	} {
		if got := fmt.Sprint(attributedQs(tt.res, tt.budget)); got != tt.want {
			t.Errorf("attributedQs(pmax %d, budget %d) = %s, want %s", tt.res.PMax, tt.budget, got, tt.want)
		}
	}
}

func seq(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}
