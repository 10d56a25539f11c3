package mhwm

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestAttributionSharedSums: Attribute keeps the sums of the completed
// parts it charged and reuses them for later q (picker.sum). For random
// programs, with and without limits, every q's attribution after all the
// others (in descending order, so that every sum a lower q needs may
// come from the cache) equals the attribution of a fresh result that has
// computed nothing before it.
func TestAttributionSharedSums(t *testing.T) {
	for _, c := range []struct {
		name   string
		config func(int) genConfig
		seed   int64
	}{
		{"unlimited", smallConfig, 31e5},
		{"limited", limitCfg, 47e5},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i < programs(300); i++ {
				cfg := c.config(i)
				cfg.maxSpawns = 12
				prog := genProgram(rand.New(rand.NewSource(c.seed+int64(i))), cfg)
				p := 2 + i%5
				attr := func() *Result {
					e, _ := New(Config{P: p, Attribution: true})
					res, err := run(e, prog)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				warm := attr()
				got := make([]*Attribution, p+1)
				for q := p; q >= 0; q-- {
					a, err := warm.Attribute(q)
					if err != nil {
						t.Fatal(err)
					}
					got[q] = a
				}
				for q := 0; q <= p; q++ {
					want, err := attr().Attribute(q)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(got[q], want) {
						t.Fatalf("program %d q=%d: after the other q %+v, alone %+v\n%s", i, q, got[q], want, bodyString(prog))
					}
				}
			}
		})
	}
}
