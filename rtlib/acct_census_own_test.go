package rtlib

import "testing"

// censusKept keeps TestCensusOwnAtCollection's small objects live.
var censusKept [][]byte

// TestCensusOwnAtCollection: a census compares the live heap as its
// collection found it with rtlib's own live bytes (ownLive) as of that
// collection, not after chargeSmall has grown rtlib's tables. Here
// chargeSmall charges the program's live small objects to a site
// registered after the root's per-site arrays were sized, so it grows
// allocB and allocN and the pool's array. Nothing dies between the last
// two censuses, so the last must find no deaths: the pool, the orphans
// and the baseline together hold at least what they held before it
// plus what it charged. At 888356d
// (ownLive read after chargeSmall), run alone, it found 1112 bytes of
// deaths, taken from the program's pooled bytes: the arrays' growth,
// 2×(704−160) for allocB and allocN (19 to 83 sites) and 56 for a chunk
// more in the pool's array, less 32 live bytes nobody explained. At
// 0649707 it finds none (the 32 bytes go to the orphans).
func TestCensusOwnAtCollection(t *testing.T) {
	policy := cfg.census
	defer func() { cfg.census = policy }()
	inRoot(func() {
		r := mem.holder.root
		New(sMake, new([4]int64)) // sizes r.allocB to the sites registered so far
		cfg.census = censusOracle // a census at every At
		At(sCall)
		sLate := Register("rtlib", "acct_census_own_test.go", make([]SiteInfo, 64))
		At(sLate) // collects Register's garbage; chargeSmall's bytes up to here go to sCall
		if len(r.allocB) > int(sLate) {
			t.Fatalf("r.allocB already covers site %d (%d sites): no growth to test", sLate, len(r.allocB))
		}
		kept := make([][]byte, 256)
		for i := range kept {
			kept[i] = make([]byte, 64) // uninstrumented small objects: pooled, live
		}
		censusKept = kept
		before := mem.poolLive + mem.orphan + mem.baseline
		At(sLate) // the census: chargeSmall charges kept to sLate, growing r.allocB
		cfg.census = policy
		charged := r.allocB[sLate]
		if dead := before + charged - (mem.poolLive + mem.orphan + mem.baseline); dead > 0 {
			t.Errorf("census found %d bytes of deaths, none happened (charged %d at site %d, r.allocB grown to %d sites)",
				dead, charged, sLate, len(r.allocB))
		}
	})
	censusKept = nil
}
