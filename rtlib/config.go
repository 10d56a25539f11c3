package rtlib

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/spgo/spgo/rtlib/mhwm"
)

// Census policies (SPGO_CENSUS).
const (
	censusBounded = iota // the bounded-error rule, and at the end of tasks that hold much
	censusStrand         // at every strand boundary: exact per strand, slow
	censusOff            // never: nothing dies before the end of its root
	censusOracle         // at every hook, marker and strand boundary, every object tracked: ground truth, slowest
)

// atBoundaries reports whether the policy takes a census at every strand
// boundary (spawn, task end, join).
func atBoundaries() bool { return cfg.census == censusStrand || cfg.census == censusOracle }

var censusNames = [...]string{censusBounded: "bounded", censusStrand: "strand", censusOff: "off", censusOracle: "oracle"}

// cfg is the run's configuration, from the environment.
var cfg struct {
	path      string  // SPGO_PROFILE
	pmax      int     // SPGO_PMAX
	threshold int64   // SPGO_THRESHOLD: threshold mode's M, 0 for exact
	census    int     // SPGO_CENSUS
	errBound  float64 // SPGO_CENSUS_ERROR: E of the bounded-error rule
	minBudget int64   // SPGO_CENSUS_MIN: fewest bytes between censuses
	track     int64   // SPGO_TRACK: objects this large are tracked one by one
	srcRoot   string  // SPGO_SOURCE_ROOT: files under it are named relative to it
	announce  bool    // SPGO_PROFILE unset: say on stderr where the profile went
	attribute int     // SPGO_ATTRIBUTE: most per-line attributions per root
	traceMax  int64   // SPGO_TRACE_LIMIT: bytes of a root's attribution trace, 0 for no limit
	stacks    bool    // SPGO_STACKS: goroutine stacks beside the heap (acct_stack.go)
	problems  []string
}

// lagExact is how many bytes of small uninstrumented allocations may be
// seen late (census_lag_bytes) before a root is marked inexact for it;
// rtlib's own bookkeeping is most of them.
const lagExact = 256 << 10

// Defaults.
const (
	defaultPMax      = 64
	defaultErrBound  = 0.03
	defaultMinBudget = 64 << 10
	defaultTrack     = 4 << 10
	defaultAttribute = 32
	defaultTraceMax  = 1 << 30
)

func init() { loadConfig() }

// loadConfig reads the SPGO_* variables; a bad value is reported on
// standard error and in the profile's warnings, and the default is used.
func loadConfig() {
	cfg.path = os.Getenv("SPGO_PROFILE")
	if cfg.path == "" {
		cfg.path = "spgo-profile.json"
		cfg.announce = true
	}
	cfg.pmax = int(envInt("SPGO_PMAX", defaultPMax, 1, mhwm.MaxP))
	cfg.threshold = envInt("SPGO_THRESHOLD", 0, 0, mhwm.MaxBytes)
	cfg.minBudget = envInt("SPGO_CENSUS_MIN", defaultMinBudget, 0, mhwm.MaxBytes)
	cfg.track = envInt("SPGO_TRACK", defaultTrack, 16, mhwm.MaxBytes)
	cfg.attribute = int(envInt("SPGO_ATTRIBUTE", defaultAttribute, 1, mhwm.MaxP+1))
	cfg.traceMax = envInt("SPGO_TRACE_LIMIT", defaultTraceMax, 0, mhwm.MaxBytes)
	if root := os.Getenv("SPGO_SOURCE_ROOT"); root != "" {
		if filepath.IsAbs(root) {
			cfg.srcRoot = filepath.Clean(root)
		} else {
			envProblem(fmt.Sprintf("SPGO_SOURCE_ROOT=%q: not an absolute path; file names stay absolute", root))
		}
	}
	cfg.errBound = defaultErrBound
	if v := os.Getenv("SPGO_CENSUS_ERROR"); v != "" {
		e, err := strconv.ParseFloat(v, 64)
		if err != nil || !(e >= 0 && e <= 100) { // NaN fails both
			envProblem(fmt.Sprintf("SPGO_CENSUS_ERROR=%q: want a number from 0 to 100; using %g", v, defaultErrBound))
		} else {
			cfg.errBound = e
		}
	}
	cfg.stacks = true
	switch v := os.Getenv("SPGO_STACKS"); v {
	case "", "on":
	case "off":
		cfg.stacks = false
	default:
		envProblem(fmt.Sprintf("SPGO_STACKS=%q: want on or off; using on", v))
	}
	cfg.census = censusBounded
	if v := os.Getenv("SPGO_CENSUS"); v != "" {
		i := slices.Index(censusNames[:], v)
		if i < 0 {
			envProblem(fmt.Sprintf("SPGO_CENSUS=%q: want bounded, strand, off or oracle; using bounded", v))
		} else {
			cfg.census = i
		}
	}
	if cfg.census == censusOracle {
		// Every hooked object is followed one by one (a weak pointer
		// each), whatever SPGO_TRACK says.
		cfg.track = 1
	}
	mem.budget = cfg.minBudget
}

func envInt(name string, def, lo, hi int64) int64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lo || n > hi {
		envProblem(fmt.Sprintf("%s=%q: want an integer from %d to %d; using %d", name, v, lo, hi, def))
		return def
	}
	return n
}

// envOut receives the reports of bad SPGO_* values (tests replace it).
var envOut io.Writer = os.Stderr

// envProblem reports a bad SPGO_* value, as doc.go says: on standard
// error at once, where the user running the program sees it, and in the
// profile's warnings. Variables are read during package initialisation,
// before any goroutine of the program runs.
func envProblem(msg string) {
	cfg.problems = append(cfg.problems, msg)
	fmt.Fprintf(envOut, "spgo: %s\n", msg)
}

// envCheck reads SPGO_CHECK: 1 turns identity checks on, 0 or nothing
// leaves them off.
func envCheck() bool {
	switch v := os.Getenv("SPGO_CHECK"); v {
	case "", "0":
		return false
	case "1":
		return true
	default:
		envProblem(fmt.Sprintf("SPGO_CHECK=%q: want 1 (or 0); identities are not checked", v))
		return false
	}
}
