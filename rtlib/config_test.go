package rtlib

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestBadEnvOnStderr starts a program (this test binary, running no
// test) with bad SPGO_* values: each is reported on standard error at
// start, as doc.go says, not only among the profile's warnings; good
// values are not.
func TestBadEnvOnStderr(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"SPGO_WATCHDOG=1us", `spgo: SPGO_WATCHDOG="1us": the shortest period is 10ms`},
		{"SPGO_WATCHDOG=-1s", `spgo: SPGO_WATCHDOG="-1s": the shortest period is 10ms`},
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
		{"SPGO_STACKS=no", `spgo: SPGO_STACKS="no": want on or off`},
		{"SPGO_STACKS=off", ""},
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

// TestWatchdogPeriod: SPGO_WATCHDOG below the minimum, negative or not a
// duration is refused (the default is used); 0 disables the watchdog.
func TestWatchdogPeriod(t *testing.T) {
	var buf bytes.Buffer
	old, oldProblems := envOut, cfg.problems
	envOut = &buf
	defer func() { envOut, cfg.problems = old, oldProblems }()
	for _, c := range []struct {
		v       string
		want    time.Duration
		refused bool
	}{
		{"", time.Second, false},
		{"0", 0, false},
		{"10ms", minWatchdog, false},
		{"250ms", 250 * time.Millisecond, false},
		{"9ms", time.Second, true},
		{"1us", time.Second, true},
		{"-1s", time.Second, true},
		{"1", time.Second, true},
		{"soon", time.Second, true},
	} {
		buf.Reset()
		t.Setenv("SPGO_WATCHDOG", c.v)
		if got := watchdogPeriod(); got != c.want || (buf.Len() > 0) != c.refused {
			t.Errorf("SPGO_WATCHDOG=%q: %v, reported %q; want %v, refused %v", c.v, got, buf.String(), c.want, c.refused)
		}
	}
}
