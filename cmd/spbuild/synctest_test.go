package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spgo/spgo/rtlib/profile"
)

// synctestPkg is a worker pool tested in synctest bubbles: goroutines,
// channels, a WaitGroup, a Mutex, sleeps on the bubble's clock, a select
// on time.After and synctest.Wait. Under rtlib's baton the bubble's
// goroutines would use rtlib's channels from inside the bubble (a fatal
// error) and never be durably blocked (synctest.Wait and the fake clock
// would hang).
var synctestPkg = map[string]string{
	"go.mod": "module example.com/st\n\ngo 1.25\n",
	"p.go": `package st

import (
	"sync"
	"time"
)

type Pool struct {
	jobs chan func()
	wg   sync.WaitGroup
	mu   sync.Mutex
	done int
}

func NewPool(n int) *Pool {
	p := &Pool{jobs: make(chan func())}
	for range n {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for f := range p.jobs {
				f()
				p.mu.Lock()
				p.done++
				p.mu.Unlock()
			}
		}()
	}
	return p
}

func (p *Pool) Submit(f func()) { p.jobs <- f }

func (p *Pool) Stop() { close(p.jobs); p.wg.Wait() }

func After(d time.Duration, stop <-chan struct{}) <-chan bool {
	out := make(chan bool, 1)
	go func() {
		select {
		case <-time.After(d):
			out <- true
		case <-stop:
			out <- false
		}
	}()
	return out
}
`,
	"p_test.go": `package st

import (
	"testing"
	"testing/synctest"
	"time"
)

func TestPoolSleeps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := NewPool(4)
		for range 8 {
			p.Submit(func() { time.Sleep(time.Second); _ = make([]byte, 1<<10) })
		}
		p.Stop()
		if got := time.Since(start); got != 2*time.Second {
			t.Errorf("took %v on the bubble's clock, want 2s", got)
		}
		if p.done != 8 {
			t.Errorf("done %d, want 8", p.done)
		}
	})
}

func TestAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stop := make(chan struct{})
		c := After(time.Hour, stop)
		synctest.Wait()
		select {
		case <-c:
			t.Fatal("fired before its hour")
		default:
		}
		time.Sleep(time.Hour)
		if !<-c {
			t.Fatal("stopped")
		}
	})
}

func TestPlain(t *testing.T) {
	p := NewPool(2)
	p.Submit(func() { _ = make([]byte, 1<<20) })
	p.Stop()
}
`,
}

// TestSynctest: tests in synctest bubbles pass, and their roots say why
// their figures are not exact; a root without a bubble does not.
func TestSynctest(t *testing.T) {
	dir := writeTree(t, synctestPkg)
	prof := filepath.Join(t.TempDir(), "p.json")
	stdout, stderr, code := spbuild(t, dir, t.TempDir(), "test", "-json", prof, ".", "--", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, name := range []string{"TestPoolSleeps", "TestAfter", "TestPlain"} {
		if !strings.Contains(stdout, "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, stdout)
		}
	}
	if strings.Contains(stderr, "watchdog") || strings.Contains(stderr, "not supported") {
		t.Errorf("a warning:\n%s", stderr)
	}
	p, err := profile.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"TestPoolSleeps": true, "TestAfter": true, "TestPlain": false}
	for _, r := range p.Roots {
		name := r.Name[strings.LastIndex(r.Name, ".")+1:]
		bubbled := strings.Contains(strings.Join(r.Reasons, "\n"), "synctest bubble")
		if w, ok := want[name]; !ok || bubbled != w {
			t.Errorf("%s: bubble reason %v, want %v (reasons %q)", r.Name, bubbled, w, r.Reasons)
		}
		if _, _, bounded := r.IntervalAt(1); bubbled && (r.Exact || bounded) {
			t.Errorf("%s: exact %v, interval %v: a bubble's memory is not modelled", r.Name, r.Exact, bounded)
		}
		delete(want, name)
	}
	if len(want) > 0 {
		t.Errorf("roots missing from the profile: %v", want)
	}
}
