package rtlib_test

// accuracyCases is the accuracy corpus of testdata/accuracy (issue 21):
// constructed programs of the shapes on which per-strand accounting goes
// wrong, each with its analytic MHWM_p and serial peak (derived in the
// comment at the top of the program's main.go). Every program is
// series-parallel (sync.WaitGroup and errgroup only), so every figure
// should be exact.
//
// The figures count spgo's model of goroutine descriptors (480 bytes per
// goroutine from its go statement to its join, rtlib/dag.go
// goroutineBytes) and leave out small objects the programs allocate
// besides (closures, WaitGroups, result slices: at most 2 KiB, stated in
// each header). regexp and mathbig leave out a few KiB per task of the
// library's own state, which depends on its internals (see their
// headers): their figures are lower bounds of the truth, which is within
// slack of them.
//
// The serial figures were checked against the live heap of the
// uninstrumented programs run child-first (runtime/metrics
// /gc/heap/live:bytes after runtime.GC at the points where the
// derivation puts the peak, less the heap at the start of main, at
// GOMAXPROCS=1): the measured peak is the figure less the descriptors
// plus 0 to 384 bytes (the small objects left out) for every program
// but regexp and mathbig (+ε, as stated in their headers).
var accuracyCases = []accCase{
	{name: "mergesort", exact: true, serial: 4 * mib,
		mhwm:  func(p int64) int64 { return 4*mib + 960*(min(p, 64)-1) },
		lines: []lineCase{{mark: "// data", alloc: 2 * mib}}},
	{name: "bintrees", exact: true, serial: 5_246_688, slow: "1.4 M small objects: a collection each",
		mhwm: func(p int64) int64 { return 4_194_288 + min(p, 8)*1_048_560 + 8*480 }},
	{name: "handoff", exact: true, serial: 8*mib + 8*480,
		mhwm:  func(p int64) int64 { return max(8*mib, min(p, 8)*2*mib) + 8*480 },
		lines: []lineCase{{mark: "// scratch", alloc: 16 * mib}}},
	{name: "stdlibheavy", exact: true, serial: 2_102_016,
		mhwm:  func(p int64) int64 { return min(p, 8)*2_098_176 + 8*480 },
		lines: []lineCase{{mark: "// repeat", alloc: 8 * mib}}},
	{name: "finegrain", exact: true, serial: 15_896,
		mhwm: func(p int64) int64 { return 992*ancestors(p, 16) + 48*min(p, 1<<15) }},
	{name: "bandbuf", exact: true, serial: 5_263_104,
		mhwm: func(p int64) int64 { return 4*mib + min(p, 8)*1_064_960 + 8*480 },
		lines: []lineCase{{mark: "// image", alloc: 4 * mib},
			{mark: "// band", alloc: 8 * 1_064_960}}},
	{name: "strconvkeep", exact: true, serial: 6_406_912, slow: "200 000 external calls: a collection each",
		mhwm: func(p int64) int64 { return 3_203_072 + 200_000*16 + 8*480 },
		lines: []lineCase{{mark: "// slots", alloc: 3_203_072},
			{mark: "// itoa", alloc: 200_000 * 16}}},
	{name: "nested", exact: true, serial: 3_673_856,
		mhwm: func(p int64) int64 { return 2*mib + min(p, 4)*(mib+4*480) + min(p, 16)*512*kib + 4*480 },
		lines: []lineCase{{mark: "// level0", alloc: 2 * mib},
			{mark: "// level1", alloc: 4 * mib},
			{mark: "// leaf", alloc: 16 * 512 * kib}}},
	{name: "regexp", exact: true, serial: 1_089_280,
		mhwm:  func(p int64) int64 { return min(p, 8)*mib + 36_864 + 8*480 },
		lines: []lineCase{{mark: "// text", alloc: 8 * mib}}},
	{name: "mathbig", exact: true, serial: 1_052_416,
		mhwm:  func(p int64) int64 { return min(p, 8)*mib + 8*480 },
		lines: []lineCase{{mark: "// out", alloc: 8 * mib}}},
	{name: "dropearly", exact: true, serial: 3_147_648,
		mhwm:  func(p int64) int64 { return min(p, 4)*3*mib + 4*480 },
		lines: []lineCase{{mark: "// first", alloc: 4 * 3 * mib}}},
	{name: "parentdrop", exact: true, serial: 4_194_784,
		mhwm: func(p int64) int64 { return 4*mib + min(p, 8)*mib + 9*480 },
		lines: []lineCase{{mark: "// big", alloc: 4 * mib},
			{mark: "// scratch", alloc: 8 * mib}}},
	{name: "smallwork", exact: true, serial: 3_168_000,
		mhwm:  func(p int64) int64 { return 2*mib + min(p, 8)*1_067_008 + 8*480 },
		lines: []lineCase{{mark: "// item", alloc: 2 * mib}}},
	// Deaths the compiler proves (acct_frame.go): growth of a slice that
	// escapes and of one that does not, and per-call frames and leaf
	// scratch of a fork-join.
	// The append line allocates every growth's array (8 369 376 bytes a
	// task, 8 369 344 without the stack buffer's first 32 when the slice
	// does not escape: the capacities Go's growth gives, summed) and holds
	// the last two in MHWM_64's worst case.
	{name: "appendesc", exact: true, serial: 3_153_920 + 8*480,
		mhwm:  func(p int64) int64 { return min(p, 8)*3_153_920 + 8*480 },
		lines: []lineCase{{mark: "// append", alloc: 8 * 8_369_376, share: 8 * 3_153_920}}},
	{name: "appendlocal", exact: true, serial: 3_153_920 + 8*480,
		mhwm:  func(p int64) int64 { return min(p, 8)*3_153_920 + 8*480 },
		lines: []lineCase{{mark: "// append", alloc: 8 * 8_369_344, share: 8 * 3_153_920}}},
	// frames: its frames and scratch are proven dead, its results and
	// WaitGroups are frame-shared (acct_shared.go): no census needed for
	// any of them.
	{name: "frames", exact: true, serial: 12*3008 + 5120,
		mhwm:  func(p int64) int64 { return 3008*ancestors(p, 12) + min(p, 4096)*5120 },
		lines: []lineCase{{mark: "// frame", alloc: 4095 * 2048, share: 2048 * ancestors(64, 12)}}},
	// joined: arrays the goroutines fill, which escape into their
	// literals, die at their function's return (acct_shared.go).
	{name: "joined", exact: true, serial: 11 * 3008,
		mhwm:  func(p int64) int64 { return 3008 * ancestors(p, 11) },
		lines: []lineCase{{mark: "// res", alloc: 2047 * 2048, share: 2048 * ancestors(64, 11)}}},
	// loopscratch: a scratch per turn of a loop, proven dead only at the
	// return: censuses find the deaths, and the interval must allow for
	// the ones Drop charges.
	{name: "loopscratch", exact: false, serial: 3072 + 4*480,
		mhwm: func(p int64) int64 { return min(p, 4)*3072 + 4*480 }},
	// Goroutine stacks (acct_stack.go): 10 000 goroutines alive at once
	// at their starting size, and 8 that recurse 1 MiB deep.
	{name: "spawnwide", exact: true, serial: 10_000 * 496,
		mhwm:   func(p int64) int64 { return 10_000 * 496 },
		stacks: func(p int64) int64 { return 10_000 * 2048 }, stacksExact: true},
	{name: "deepstack", exact: true, serial: 4160,
		mhwm:   func(p int64) int64 { return 4160 },
		stacks: func(p int64) int64 { return min(p, 8)*(1<<20) + (8-min(p, 8))*2048 }},
	// Reuse (acct_pool.go, acct_freelist.go): a sync.Pool and a channel
	// used as a free list, whose serial run reuses one buffer where p
	// tasks in progress hold p.
	{name: "poolbuf", exact: true, serial: 2*mib + 24 + 16*480,
		mhwm: func(p int64) int64 { return min(p, 16)*(2*mib+24) + 16*480 },
		lines: []lineCase{{mark: "// get", alloc: 15 * (2*mib + 24)},
			{mark: "// new", alloc: 2*mib + 24}}},
	{name: "freelist", exact: true, serial: 2*mib + 16*480,
		mhwm: func(p int64) int64 { return min(p, 16)*2*mib + 16*480 },
		lines: []lineCase{{mark: "// reuse", alloc: 15 * 2 * mib},
			{mark: "// new", alloc: 2 * mib}}},
	// Buffers grown inside the standard library (acct_buf.go): every
	// growth holds the old and the new array at once.
	{name: "builder", exact: true, serial: 8*1_753_088 + 1_400_832 + 8*480, slow: "150 000 external calls a task: a collection each",
		mhwm:  func(p int64) int64 { return 8*1_753_088 + min(p, 8)*1_400_832 + 8*480 },
		lines: []lineCase{{mark: "// write", alloc: 8 * 8_395_504, share: 8 * (1_753_088 + 1_400_832)}}},
	{name: "bytesbuf", exact: true, serial: 3*mib + 8*480, slow: "150 000 external calls a task: a collection each",
		mhwm:  func(p int64) int64 { return min(p, 8)*3*mib + 8*480 },
		lines: []lineCase{{mark: "// write", alloc: 8 * 4_194_240, share: 8 * 3 * mib}}},
	// A map built and dropped (acct_map.go): its tables grow inside the
	// runtime.
	{name: "mapdrop", exact: true, serial: 2_364_592 + 17_408 + 8*480,
		mhwm: func(p int64) int64 { return min(p, 8)*(2_364_592+17_408) + 8*480 }},
	{name: "errlimit", exact: true, serial: 2_104_832,
		mhwm:  func(p int64) int64 { return 16*64*kib + min(p, 4)*mib + 16*480 },
		lines: []lineCase{{mark: "// result", alloc: 16 * 64 * kib}}},
}

// ancestors is U(p) = Σ_{k<d} min(2^k, p): the most internal nodes of a
// complete binary tree of depth d that p leaves can have as ancestors
// (at most p of them at each depth).
func ancestors(p, d int64) int64 {
	var u int64
	for k := range d {
		u += min(int64(1)<<k, p)
	}
	return u
}
