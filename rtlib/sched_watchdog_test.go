package rtlib

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// tinyWatchdogEnv marks the child process of TestWatchdogTinyPeriod.
const tinyWatchdogEnv = "SPGO_TEST_TINY_WATCHDOG"

// TestWatchdogTinyPeriod runs fork-join, pipeline and fan-in programs
// under a watchdog whose period (1 µs, far below what SPGO_WATCHDOG
// accepts) makes it take the baton from nearly every holder, at every
// point of the hand-off: from a task given the baton before the Go
// scheduler ran it, from a holder between its failed attempt and its
// park, from a rendezvous partner in its blocking operation. Each run
// must end with the program's results; a task that loses the baton and
// is never given it back (a lost wake-up) leaves every goroutine
// asleep.
//
// The runs happen in a child process, the test binary itself with no
// test timer (-test.timeout=0): there a lost wake-up ends the process
// with the Go runtime's "all goroutines are asleep - deadlock!", the
// failure this test reports, rather than a hang.
//
// Not under the race detector: ten times slower, rtlib's own long steps
// (a census at the end of a task) outlast the ten periods a busy holder
// gets, and the watchdog takes the baton in the middle of them: a
// non-serial run of rtlib itself, which the shortest period SPGO_WATCHDOG
// accepts (10 ms, a hundred for a busy holder) keeps out of reach.
func TestWatchdogTinyPeriod(t *testing.T) {
	if raceEnabled {
		t.Skip("a 1 µs watchdog takes the baton inside rtlib under the race detector")
	}
	if os.Getenv(tinyWatchdogEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWatchdogTinyPeriod$", "-test.timeout=0", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), tinyWatchdogEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestWatchdogTinyPeriod") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	wdPeriod.Store(int64(time.Microsecond))
	warnMu.Lock()
	warnOut = io.Discard // a warning per steal
	warnMu.Unlock()
	for i := range 20 {
		var fib int
		var pipe, fan recorder
		inRoot(func() {
			fib = progFib(12, 0)
			// Only the root prints in these two: their output does
			// not depend on the order in which the others run.
			progPipeline(40, &pipe)
			progFanIn(16, &fan)
		})
		if fib != 144 {
			t.Fatalf("run %d: fib(12) = %d", i, fib)
		}
		want := make([]string, 40)
		for k := range want {
			want[k] = strconv.Itoa(k*k + 1)
		}
		if !slices.Equal(pipe.lines, want) {
			t.Fatalf("run %d: pipeline printed %q", i, pipe.lines)
		}
		if got := strings.Join(fan.lines, "|"); got != "sum 120" {
			t.Fatalf("run %d: fan-in printed %q", i, got)
		}
	}
	if steals.Load() == 0 {
		t.Fatal("the watchdog never took the baton: this test tests nothing")
	}
	t.Logf("%d steals", steals.Load())
}

// TestWatchdogEnds: once nobody waits for the baton the watchdog ends
// (after wdLinger), so that a program listing its goroutines at the end
// of a test (goleak) does not find rtlib's; the next wait starts it
// again.
func TestWatchdogEnds(t *testing.T) {
	for round := range 2 {
		inRoot(func() {
			var wg sync.WaitGroup
			Add(sAdd, &wg, 1)
			spawn(func() { defer Done(&wg) }) // the parent waits: a watchdog runs
			Wait(sWait, &wg)
		})
		quiet(t)
		deadline := time.Now().Add(5 * time.Second)
		for watchdogRuns() {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the watchdog still runs with nobody waiting", round)
			}
			time.Sleep(wdLinger)
		}
	}
}

// watchdogRuns reports whether a goroutine runs rtlib's watchdog.
func watchdogRuns() bool {
	buf := make([]byte, 1<<20)
	return strings.Contains(string(buf[:runtime.Stack(buf, true)]), "rtlib.watchdog(")
}
