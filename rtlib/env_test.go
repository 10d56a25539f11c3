package rtlib

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBadEnvOnStderr starts a program (this test binary, running no
// test) with bad SPGO_* values: each is reported on standard error at
// start, as doc.go says, not only among the profile's warnings; good
// values are not.
func TestBadEnvOnStderr(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"SPGO_WATCHDOG=-1s", `spgo: SPGO_WATCHDOG="-1s": a period cannot be negative`},
		{"SPGO_WATCHDOG=5", `spgo: SPGO_WATCHDOG="5": want a duration`},
		{"SPGO_CENSUS_ERROR=NaN", `spgo: SPGO_CENSUS_ERROR="NaN": want a number from 0 to 100`},
		{"SPGO_CENSUS_ERROR=Inf", `spgo: SPGO_CENSUS_ERROR="Inf": want a number from 0 to 100`},
		{"SPGO_CENSUS=fast", `spgo: SPGO_CENSUS="fast": want bounded, strand, off or oracle`},
		{"SPGO_CENSUS_MIN=64k", `spgo: SPGO_CENSUS_MIN="64k": want an integer`},
		{"SPGO_PMAX=0", `spgo: SPGO_PMAX="0": want an integer from 1`},
		{"SPGO_THRESHOLD=-1", `spgo: SPGO_THRESHOLD="-1": want an integer from 0`},
		{"SPGO_TRACK=8", `spgo: SPGO_TRACK="8": want an integer from 16`},
		{"SPGO_ATTRIBUTE=all", `spgo: SPGO_ATTRIBUTE="all": want an integer from 1`},
		{"SPGO_SOURCE_ROOT=src", `spgo: SPGO_SOURCE_ROOT="src": not an absolute path`},
		{"SPGO_CHECK=yes", `spgo: SPGO_CHECK="yes": want 1`},
		{"SPGO_WATCHDOG=10ms", ""},
		{"SPGO_WATCHDOG=0", ""},
		{"SPGO_CHECK=0", ""},
		{"SPGO_CENSUS_ERROR=0.1", ""},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), c.env)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: %v\n%s", c.env, err, stderr.String())
			continue
		}
		got := stderr.String()
		if c.want == "" && strings.Contains(got, "spgo:") || !strings.Contains(got, c.want) {
			t.Errorf("%s: stderr %q, want %q", c.env, got, c.want)
		}
	}
}
