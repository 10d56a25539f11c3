// Command testbounds checks spbuild test's per-test figures against a
// bound measured without spgo's hooks (issue #37's figures sweep).
//
// For each package of a module directory (a scratch copy of a public
// module, outside the repository: the command writes a file into it) it
//
//   - adds zz_spgo_bound_test.go, which records the live heap after every
//     collection (a finalizer re-armed at each one, so that no goroutine
//     of its own shows in the test's goroutine checks) when
//     SPGO_BOUND_FILE is set, and does nothing otherwise;
//   - builds the plain test binary and runs each top-level test alone,
//     first in its binary, at GOGC=1 and GOMAXPROCS=1: the largest live
//     heap after a collection, less the live heap at start-up, is the
//     lower bound (what the test certainly held at once, up to the
//     objects the collector allocated black during a cycle);
//   - runs spbuild test -json on the package with the file removed, and
//     reads each test's serial figure, its label and the observed bound
//     the instrumented run held it to (self_check_failed).
//
// It prints one row per test and a summary per package: exact figures
// below the lower bound by more than 3 % + 256 KiB (defects), the gap
// between exact figures and the bound (median and worst), and the
// figures the run's own observation lowered. It needs no network beyond
// what the module's tests need, and takes minutes per package: it is
// not part of go test.
//
// Usage:
//
//	go run ./bench/testbounds -spbuild /path/to/spbuild -dir /tmp/mod ./...
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spgo/spgo/rtlib/profile"
)

func main() {
	dir := flag.String("dir", "", "the module directory (a scratch copy; a file is written into each package)")
	spbuild := flag.String("spbuild", "spbuild", "the spbuild binary")
	timeout := flag.Duration("timeout", 2*time.Minute, "per plain test run")
	flag.Parse()
	if *dir == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: testbounds -dir module [-spbuild bin] packages")
		os.Exit(2)
	}
	pkgs, err := listPackages(*dir, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbounds:", err)
		os.Exit(1)
	}
	fmt.Println("| package | test | lower bound | serial | exact | observed bound applied | verdict |")
	fmt.Println("|---|---|---:|---:|---|---|---|")
	for _, p := range pkgs {
		if err := sweep(p, *spbuild, *timeout); err != nil {
			fmt.Fprintf(os.Stderr, "testbounds: %s: %v\n", p.ImportPath, err)
		}
	}
}

// pkg is what go list says of a package.
type pkg struct {
	Dir, ImportPath, Name string
	TestGoFiles           []string
}

func listPackages(dir string, patterns []string) ([]pkg, error) {
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var ps []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		if len(p.TestGoFiles) > 0 {
			ps = append(ps, p)
		}
	}
	return ps, nil
}

// boundFile is the recorder added to each package.
const boundFile = `package %s

import (
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
)

// Written by spgo's bench/testbounds into a scratch copy.

var spgoBound struct {
	path       string
	base, peak uint64
	s          []metrics.Sample
}

type spgoSentinel struct{ _ [16]byte }

func init() {
	spgoBound.path = os.Getenv("SPGO_BOUND_FILE")
	if spgoBound.path == "" {
		return
	}
	spgoBound.s = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	runtime.GC()
	metrics.Read(spgoBound.s)
	spgoBound.base = spgoBound.s[0].Value.Uint64()
	spgoArm()
}

func spgoArm() {
	x := new(spgoSentinel)
	runtime.SetFinalizer(x, func(*spgoSentinel) {
		metrics.Read(spgoBound.s)
		if v := spgoBound.s[0].Value.Uint64(); v > spgoBound.peak {
			spgoBound.peak = v
			// Whole or not at all: the process may end meanwhile.
			tmp := spgoBound.path + ".tmp"
			if os.WriteFile(tmp, []byte(strconv.FormatUint(spgoBound.base, 10)+" "+strconv.FormatUint(v, 10)), 0o644) == nil {
				os.Rename(tmp, spgoBound.path)
			}
		}
		spgoArm()
	})
}
`

// sweep measures one package.
func sweep(p pkg, spbuild string, timeout time.Duration) error {
	rec := filepath.Join(p.Dir, "zz_spgo_bound_test.go")
	if err := os.WriteFile(rec, fmt.Appendf(nil, boundFile, p.Name), 0o644); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "testbounds")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "pkg.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Dir = p.Dir
	out, err := build.CombinedOutput()
	os.Remove(rec)
	if err != nil {
		return fmt.Errorf("go test -c: %v\n%s", err, out)
	}
	list := exec.Command(bin, "-test.list", ".")
	list.Dir = p.Dir
	out, err = list.Output()
	if err != nil {
		return fmt.Errorf("-test.list: %v", err)
	}
	lower := map[string]int64{}
	var tests []string
	for _, name := range strings.Fields(string(out)) {
		if !strings.HasPrefix(name, "Test") {
			continue
		}
		tests = append(tests, name)
		b, err := plainBound(p.Dir, bin, name, filepath.Join(tmp, "bound"), timeout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testbounds: %s.%s: %v\n", p.ImportPath, name, err)
			continue
		}
		lower[name] = b
	}
	prof := filepath.Join(tmp, "p.json")
	sp := exec.Command(spbuild, "test", "-q", "-json", prof, ".", "--", "-timeout=10m")
	sp.Dir = p.Dir
	if out, err := sp.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "testbounds: %s: spbuild test: %v\n%s", p.ImportPath, err, tail(out))
	}
	pr, err := profile.ReadFile(prof)
	if err != nil {
		return err
	}
	roots := map[string]*profile.Root{}
	for i := range pr.Roots {
		r := &pr.Roots[i]
		roots[r.Name[strings.LastIndex(r.Name, ".")+1:]] = r
	}
	var gaps []float64
	below, exact, lowered := 0, 0, 0
	for _, name := range tests {
		r, lb := roots[name], lower[name]
		if r == nil {
			fmt.Printf("| %s | %s | %s | - | - | - | no root |\n", p.ImportPath, name, mib(lb))
			continue
		}
		verdict := ""
		if r.Exact {
			exact++
			if r.SerialPeak < lb-slack(lb) {
				below++
				verdict = "**exact, below the plain bound**"
			}
			if lb > 0 {
				gaps = append(gaps, float64(r.SerialPeak-lb)/(1<<20))
			}
		}
		if r.SelfCheckFailed {
			lowered++
		}
		fmt.Printf("| %s | %s | %s | %s | %v | %v | %s |\n", p.ImportPath, name, mib(lb), mib(r.SerialPeak), r.Exact, r.SelfCheckFailed, verdict)
	}
	sort.Float64s(gaps)
	lo, med, hi := 0.0, 0.0, 0.0
	if n := len(gaps); n > 0 {
		lo, med, hi = gaps[0], gaps[n/2], gaps[n-1]
	}
	fmt.Printf("| %s | **summary** | %d tests | %d exact | %d exact below the bound | %d lowered to the observed bound | exact − bound: median %.2f MiB, from %.2f to %.2f MiB |\n",
		p.ImportPath, len(tests), exact, below, lowered, med, lo, hi)
	return nil
}

// plainBound runs test alone in the plain binary and returns its lower
// bound in bytes.
func plainBound(dir, bin, test, file string, timeout time.Duration) (int64, error) {
	os.Remove(file)
	cmd := exec.Command(bin, "-test.run", "^"+test+"$", "-test.count=1", "-test.timeout="+timeout.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOGC=1", "GOMAXPROCS=1", "SPGO_BOUND_FILE="+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("plain run: %v\n%s", err, tail(out))
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, nil // no collection raised the live heap: nothing to bound
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, fmt.Errorf("bound file %q", b)
	}
	base, err1 := strconv.ParseInt(f[0], 10, 64)
	peak, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("bound file %q", b)
	}
	return max(0, peak-base), nil
}

func slack(v int64) int64 { return v*3/100 + 256<<10 }

func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}
