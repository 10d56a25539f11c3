package rtlib

import (
	"strings"
	"testing"
)

// Traces in runtime.Stack's format; $ stands for rtlib's import path.
const (
	stackMain = `goroutine 1 [running]:
$.Stack({0xc000100000, 0x10000, 0x10000}, 0x1)
	/r/rtlib/sched_stack.go:22 +0x45
main.main()
	/u/main.go:30 +0x1b
`
	stackParked = `goroutine 7 [chan receive]:
$.waitBaton(0xc000010000)
	/r/rtlib/sched.go:303 +0x71
$.recvSlow[...](0xc000010000, 0xc00001c0c0)
	/r/rtlib/sched_chan.go:170 +0x9d
main.worker(0xc00001c0c0)
	/u/main.go:12 +0x2a
$.(*Task).runWG(0xc000010000)
	/r/rtlib/sched_group.go:160 +0xa1
created by $.WGGo in goroutine 1
	/r/rtlib/sched_group.go:152 +0x124
`
	stackParkedOut = `goroutine 7 [chan receive]:
main.worker(0xc00001c0c0)
	/u/main.go:12 +0x2a
created by $.WGGo in goroutine 1
	/r/rtlib/sched_group.go:152 +0x124
`
	stackWatchdog = `goroutine 9 [select]:
$.idleWait(0xc0000a2000)
	/r/rtlib/sched_watchdog.go:126 +0x69
$.watchdog(0xc0000a2000)
	/r/rtlib/sched_watchdog.go:171 +0x9c4
created by $.startWatchdog.func1 in goroutine 1
	/r/rtlib/sched_watchdog.go:102 +0x7d
`
	stackGrace = `goroutine 12 [select]:
$.graceWait({0x0, 0x0}, 0x2faf080)
	/r/rtlib/sched_grace.go:108 +0x9a
created by $.armGraceLocked in goroutine 7
	/r/rtlib/sched_grace.go:94 +0x85
`
	// A goroutine that has not reached the program's function.
	stackStarting = `goroutine 8 [chan receive]:
$.waitBaton(0xc000010100)
	/r/rtlib/sched.go:303 +0x71
$.(*Task).runWG(0xc000010100)
	/r/rtlib/sched_group.go:158 +0x45
created by $.WGGo in goroutine 1
	/r/rtlib/sched_group.go:152 +0x124
`
	stackNeighbours = `goroutine 3 [sleep]:
time.Sleep(0x3b9aca00)
	/go/src/runtime/time.go:363 +0x165
$.Sleep(0x2a, 0x3b9aca00)
	/r/rtlib/sched_sync.go:286 +0x6d
$/mhwm.(*Engine).Spawn(...)
	/r/rtlib/mhwm/engine.go:80
$x.F()
	/u/rtlibx/f.go:3 +0x1
...additional frames elided...
`
	stackNeighboursOut = `goroutine 3 [sleep]:
time.Sleep(0x3b9aca00)
	/go/src/runtime/time.go:363 +0x165
$x.F()
	/u/rtlibx/f.go:3 +0x1
...additional frames elided...
`
)

func TestFilterStack(t *testing.T) {
	mainOut := "goroutine 1 [running]:\nmain.main()\n\t/u/main.go:30 +0x1b\n"
	for _, tc := range []struct {
		name string
		in   []string // goroutines
		want []string
	}{
		{"the caller", []string{stackMain}, []string{mainOut}},
		{"parked in a hook", []string{stackMain, stackParked}, []string{mainOut, stackParkedOut}},
		{"rtlib's own goroutines", []string{stackMain, stackWatchdog, stackParked, stackGrace}, []string{mainOut, stackParkedOut}},
		{"own goroutine last", []string{stackMain, stackGrace}, []string{mainOut}},
		{"not started yet", []string{stackStarting}, []string{stackStarting}},
		{"packages under rtlib, names like it, elided frames", []string{stackNeighbours}, []string{stackNeighboursOut}},
	} {
		in := expand(strings.Join(tc.in, "\n"))
		want := expand(strings.Join(tc.want, "\n"))
		dst := make([]byte, len(in))
		if got := string(dst[:filterStack(dst, []byte(in))]); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, want)
		}
		buf := []byte(in) // in place, as Stack filters
		if got := string(buf[:filterStack(buf, buf)]); got != want {
			t.Errorf("%s, in place: got\n%s\nwant\n%s", tc.name, got, want)
		}
		for _, n := range []int{0, 1, len(want) / 2, len(want)} {
			short := make([]byte, n)
			if got := string(short[:filterStack(short, []byte(in))]); got != want[:n] {
				t.Errorf("%s, into %d bytes: got %q, want %q", tc.name, n, got, want[:n])
			}
		}
	}
}

// expand puts rtlib's import path for $.
func expand(s string) string { return strings.ReplaceAll(s, "$", string(rtFrame)) }

// TestStack checks that filtering allocates nothing (a hook's
// allocation would be charged to the program) and that Stack fills a
// buffer as runtime.Stack does: all of it when the trace does not fit.
func TestStack(t *testing.T) {
	in := []byte(expand(strings.Join([]string{stackMain, stackWatchdog, stackParked}, "\n")))
	dst := make([]byte, len(in))
	if n := testing.AllocsPerRun(10, func() { filterStack(dst, in) }); n != 0 {
		t.Errorf("filterStack allocates %v times", n)
	}
	big := make([]byte, 1<<16)
	n := Stack(big, false)
	if !strings.HasPrefix(string(big[:n]), "goroutine ") || strings.Contains(string(big[:n]), string(rtFrame)+".Stack(") {
		t.Errorf("Stack of the caller:\n%s", big[:n])
	}
	small := make([]byte, 16)
	if n := Stack(small, true); n != len(small) || string(small) != string(big[:16]) {
		t.Errorf("Stack into 16 bytes = %d, %q; want 16, %q", n, small[:n], big[:16])
	}
}
