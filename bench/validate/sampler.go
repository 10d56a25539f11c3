package main

// samplerSource is added to each program's main package (go build
// -overlay) for the validation runs; the programs' own files are not
// touched. With SPGO_PEAK_OUT set it reads the live heap once before
// main.main (after a collection: the baseline) and again after every
// collection the program goes through, from a finalizer re-armed each
// cycle, and keeps in the file "baseline peak readings cycles first":
// the largest live heap any collection found, how many collections it
// read, how many there were, and how many of them ran before main.main.
const samplerSource = `package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
)

type spgoPeakSentinel struct {
	p *int
	_ [48]byte
}

func init() {
	out := os.Getenv("SPGO_PEAK_OUT")
	if out == "" {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	runtime.GC()
	metrics.Read(s)
	base, first := s[0].Value.Uint64(), s[1].Value.Uint64()
	var peak, readings uint64
	f, err := os.Create(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spgo peak sampler:", err)
		return
	}
	// Fixed-width fields rewritten in place by one pwrite: the process may
	// end at any moment, and the file is never truncated or half-written.
	buf := make([]byte, 0, 128)
	write := func() {
		buf = fmt.Appendf(buf[:0], "%20d %20d %20d %20d %20d\n", base, peak, readings, s[1].Value.Uint64(), first)
		if _, err := f.WriteAt(buf, 0); err != nil {
			fmt.Fprintln(os.Stderr, "spgo peak sampler:", err)
		}
	}
	write()
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&spgoPeakSentinel{}, func(*spgoPeakSentinel) {
			metrics.Read(s)
			readings++
			peak = max(peak, s[0].Value.Uint64())
			write()
			arm()
		})
	}
	arm()
}
`
