// Package harness builds and runs the benchmark programs of bench/progs
// for the commands under bench/ (overhead, validate) and their tests.
package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Sizes are the small problem sizes the tests and the validation table
// use: each program runs in well under a second uninstrumented.
var Sizes = map[string][]string{
	"fib":        {"-n", "24"},
	"quicksort":  {"-n", "100000"},
	"nqueens":    {"-n", "8"},
	"matmul":     {"-n", "128", "-cutoff", "32"},
	"strassen":   {"-n", "256", "-cutoff", "64"},
	"tilealign":  {"-n", "64", "-tiles", "16"},
	"cholesky":   {"-n", "256", "-cutoff", "32"},
	"samplesort": {"-n", "200000", "-cutoff", "25000", "-buckets", "16"},
	"raytrace":   {"-n", "256", "-ss", "1"},
	"chain":      {"-n", "200"},
	"msort":      {"-n", "20000"},
	"httploop":   {"-n", "200"},
	"bintrees":   {"-depth", "10"},
}

// RepoRoot returns the directory of the spgo module (the one holding
// cmd/spbuild), asking the go command from the current directory.
func RepoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m: %v (run from the spgo repository)", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Programs returns the names of the programs under root/bench/progs.
func Programs(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "bench", "progs"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// ParseArgs parses 'prog=-n 25;other=-n 9' into arguments by program.
func ParseArgs(spec string) map[string][]string {
	args := map[string][]string{}
	for _, kv := range strings.Split(spec, ";") {
		if name, a, ok := strings.Cut(strings.TrimSpace(kv), "="); ok {
			args[name] = strings.Fields(a)
		}
	}
	return args
}

// Builder builds spbuild once and then plain and instrumented binaries of
// the programs into its directory.
type Builder struct {
	Root    string // the spgo repository
	Dir     string // where binaries go
	spbuild string
}

// NewBuilder builds spbuild into dir.
func NewBuilder(root, dir string) (*Builder, error) {
	b := &Builder{Root: root, Dir: dir, spbuild: filepath.Join(dir, "spbuild")}
	if err := Sh(root, nil, "go", "build", "-o", b.spbuild, "./cmd/spbuild"); err != nil {
		return nil, err
	}
	return b, nil
}

// TempBuilder is NewBuilder in a new temporary directory (named after
// pattern, as os.MkdirTemp) for the repository the go command finds from
// the current directory; done removes the directory.
func TempBuilder(pattern string) (b *Builder, done func(), err error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp("", pattern)
	if err != nil {
		return nil, nil, err
	}
	done = func() { os.RemoveAll(tmp) }
	if b, err = NewBuilder(root, tmp); err != nil {
		done()
		return nil, nil, err
	}
	return b, done, nil
}

// Plain builds prog uninstrumented and returns the binary's path; overlay,
// if not empty, is a go build -overlay file.
func (b *Builder) Plain(prog, overlay string) (string, error) {
	bin := filepath.Join(b.Dir, prog)
	args := []string{"build", "-o", bin}
	if overlay != "" {
		bin += ".peak"
		args = []string{"build", "-overlay", overlay, "-o", bin}
	}
	if err := Sh(filepath.Join(b.Root, "bench", "progs"), nil, "go", append(args, "./"+prog)...); err != nil {
		return "", err
	}
	return bin, nil
}

// Instrumented builds prog with spbuild and returns the binary's path.
func (b *Builder) Instrumented(prog string) (string, error) {
	bin := filepath.Join(b.Dir, prog+".spgo")
	env := []string{"SPGO_CACHE=" + filepath.Join(b.Dir, "cache")}
	if err := Sh(b.Root, env, b.spbuild, "build", "-o", bin, "./bench/progs/"+prog); err != nil {
		return "", err
	}
	return bin, nil
}

// Sh runs a command in dir with env added, returning its output on error.
func Sh(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// Output runs a command in dir with env added and returns its standard
// output, or an error with its standard error.
func Output(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// Run is what Timed measured of one run.
type Run struct {
	Stdout, Stderr string
	Secs           float64 // wall time
	CPUSecs        float64 // user + system time of the process and its threads
	// RSSKiB is the peak resident set. Linux counts in it the resident
	// set of the process that started the run (os/exec forks with
	// CLONE_VM and the kernel keeps the larger of the two at exec), so
	// the measuring process must stay small: CheckHeapProfileApart.
	RSSKiB int64
}

// Timed runs bin with env added and measures it; a failed run is an
// error with its standard error.
func Timed(bin string, args, env []string) (Run, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Run{Stdout: out.String(), Stderr: errb.String(), Secs: time.Since(start).Seconds()}
	if err != nil {
		return Run{}, fmt.Errorf("%s: %v\n%s", bin, err, r.Stderr)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.RSSKiB = ru.Maxrss // KiB on Linux
	}
	r.CPUSecs = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return r, nil
}

// Median returns the median of xs (the mean of the middle two for an even
// count); xs must not be empty.
func Median[T int64 | float64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Root is what the bench commands read of a profile's first root.
type Root struct {
	Exact      bool  `json:"exact"`
	SerialPeak int64 `json:"serial_peak"`
	Censuses   int64 `json:"censuses"`
	Strands    int64 `json:"strands"`
	Spawns     int64 `json:"spawns"`
	Lines      []struct {
		Allocs int64 `json:"allocs"`
	} `json:"lines"`
	MHWM []Figure `json:"mhwm"`
}

// Figure is one MHWM_p of a root.
type Figure struct {
	P     int   `json:"p"`
	Bytes int64 `json:"bytes"`
}

// ReadRoot reads the first root of the profile an instrumented run wrote
// to path.
func ReadRoot(path string) (Root, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Root{}, fmt.Errorf("the instrumented run wrote no profile: %w", err)
	}
	var p struct {
		Roots []Root `json:"roots"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return Root{}, fmt.Errorf("profile %s: %w", path, err)
	}
	if len(p.Roots) == 0 || len(p.Roots[0].MHWM) == 0 {
		return Root{}, fmt.Errorf("profile %s: no root with MHWM figures", path)
	}
	return p.Roots[0], nil
}
