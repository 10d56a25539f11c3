package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

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

// checkEnv carries CheckHeapProfileApart's arguments to the process it
// starts: path, rate and allocated, separated by newlines.
const checkEnv = "SPGO_HARNESS_CHECK_HEAP"

// CheckHeapProfileApart is CheckHeapProfile in a process of its own (the
// running executable again, which must call ServeCheck first thing in
// main): a profile at rate 1 can take hundreds of MiB to parse, and the
// resident set of the measuring process would show in the peak RSS of
// every run it starts afterwards (see Run.RSSKiB).
func CheckHeapProfileApart(path string, rate, allocated int64) (HeapProfile, error) {
	exe, err := os.Executable()
	if err != nil {
		return HeapProfile{}, fmt.Errorf("checking %s: %w", path, err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), checkEnv+"="+strings.Join([]string{path, strconv.FormatInt(rate, 10), strconv.FormatInt(allocated, 10)}, "\n"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return HeapProfile{}, fmt.Errorf("checking %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	var h HeapProfile
	if err := json.Unmarshal(out, &h); err != nil {
		return HeapProfile{}, fmt.Errorf("checking %s: %w", path, err)
	}
	return h, nil
}

// ServeCheck does the work of CheckHeapProfileApart and exits when the
// process was started for it; otherwise it returns at once.
func ServeCheck() {
	spec, ok := os.LookupEnv(checkEnv)
	if !ok {
		return
	}
	h, err := serveCheck(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(h)
	os.Exit(0)
}

func serveCheck(spec string) (HeapProfile, error) {
	f := strings.Split(spec, "\n")
	if len(f) != 3 {
		return HeapProfile{}, fmt.Errorf("%s=%q: want path, rate and allocated on three lines", checkEnv, spec)
	}
	rate, err1 := strconv.ParseInt(f[1], 10, 64)
	allocated, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil {
		return HeapProfile{}, fmt.Errorf("%s=%q: %v %v", checkEnv, spec, err1, err2)
	}
	return CheckHeapProfile(f[0], rate, allocated)
}
