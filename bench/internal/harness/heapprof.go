package harness

import (
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

// HeapProfile is what CheckHeapProfile found in a heap profile.
type HeapProfile struct {
	Rate         int64 // the sampling period (runtime.MemProfileRate)
	Samples      int   // samples (distinct allocation stacks)
	AllocObjects int64 // objects allocated, as the profile estimates them
	AllocBytes   int64
}

// sureSamples is how many sampling periods of allocation make a heap
// profile without samples an error: the runtime draws the gaps between
// samples from an exponential distribution of mean MemProfileRate, so
// no sample in 16 periods has probability e^-16.
const sureSamples = 16

// CheckHeapProfile reads the heap profile at path (runtime/pprof's
// format) and checks that the peer really profiled: the profile's
// sampling period is rate (0: any) and it holds at least one sample of
// allocated objects, unless allocated (the bytes the program is known
// to allocate, from a run at rate 1; 0 if not known) is under
// sureSamples periods, when none may be by chance. A binary whose
// memory profiling the linker dropped, or a rate that never took effect,
// fails here.
func CheckHeapProfile(path string, rate, allocated int64) (HeapProfile, error) {
	f, err := os.Open(path)
	if err != nil {
		return HeapProfile{}, fmt.Errorf("heap profile: %w", err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return HeapProfile{}, fmt.Errorf("heap profile %s: %w", path, err)
	}
	objs, bytes := -1, -1
	for i, st := range p.SampleType {
		switch st.Type {
		case "alloc_objects":
			objs = i
		case "alloc_space":
			bytes = i
		}
	}
	if objs < 0 || bytes < 0 {
		return HeapProfile{}, fmt.Errorf("heap profile %s: no alloc_objects and alloc_space sample types: not a heap profile", path)
	}
	h := HeapProfile{Rate: p.Period}
	for _, s := range p.Sample {
		if s.Value[objs] > 0 {
			h.Samples++
			h.AllocObjects += s.Value[objs]
			h.AllocBytes += s.Value[bytes]
		}
	}
	if rate != 0 && h.Rate != rate {
		return h, fmt.Errorf("heap profile %s: sampled every %d bytes, want %d: the rate did not take effect", path, h.Rate, rate)
	}
	if h.Samples == 0 && (allocated == 0 || allocated >= sureSamples*h.Rate) {
		return h, fmt.Errorf("heap profile %s: no allocation samples: the peer profiled nothing", path)
	}
	return h, nil
}
