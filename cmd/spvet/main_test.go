package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// spvetBinary builds spvet once for all tests of the package.
func spvetBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary and runs it")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "spvet-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "spvet")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// TestGoVet builds spvet and runs the real go vet -vettool on a test module:
// the diagnostics come out with file:line and go vet exits non-zero.
func TestGoVet(t *testing.T) {
	bin := spvetBinary(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = filepath.Join("testdata", "fanout")
	out, err := cmd.CombinedOutput()
	exit, ok := err.(*exec.ExitError)
	if !ok || exit.ExitCode() == 0 {
		t.Fatalf("go vet: %v, want a non-zero exit\n%s", err, out)
	}
	for _, want := range []string{
		"main.go:21:3: nonsp: wg.Wait in a goroutine other than the one that spawns into wg",
		"main.go:28:2: nonsp: goroutine never joined",
		"stage.go:12:2: tailstrict: this stage drains its whole input (channel in) into buf",
		"stage.go:24:20: tailstrict: slices.Collect materialises the whole sequence seq",
		"stage.go:51:3: unboundedspawn: one goroutine per element of urls with no bound",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("go vet output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "joinbeforeconsume") {
		t.Errorf("joinbeforeconsume reported without -joinbeforeconsume.enable:\n%s", out)
	}
	// The advisory analyzer runs when asked for.
	cmd = exec.Command("go", "vet", "-vettool="+bin, "-joinbeforeconsume.enable", "./...")
	cmd.Dir = filepath.Join("testdata", "fanout")
	out, _ = cmd.CombinedOutput()
	if want := "stage.go:39:2: joinbeforeconsume: every child of wg stores its result in res"; !strings.Contains(string(out), want) {
		t.Errorf("go vet -joinbeforeconsume.enable output lacks %q:\n%s", want, out)
	}
	// A clean package passes.
	cmd = exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = filepath.Join("..", "..", "analyzer", "internal", "groups")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet on a clean package: %v\n%s", err, out)
	}
}

// TestStandalone runs spvet as its own driver with -json.
func TestStandalone(t *testing.T) {
	bin := spvetBinary(t)
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = filepath.Join("testdata", "fanout")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), `"nonsp"`) || !strings.Contains(string(out), "goroutine never joined") {
		t.Errorf("spvet -json output:\n%s", out)
	}
}

// TestFix applies spvet's suggested fixes to a copy of the test module.
func TestFix(t *testing.T) {
	bin := spvetBinary(t)
	dir := t.TempDir()
	src := filepath.Join("testdata", "fanout")
	for _, name := range []string{"go.mod", "main.go", "stage.go"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "-fix", "./...")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	b, err := os.ReadFile(filepath.Join(dir, "stage.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "for v := range seq {") || strings.Contains(string(b), "slices.Collect(seq)") {
		t.Errorf("spvet -fix did not rewrite the collect-then-range loop:\n%s\n%s", out, b)
	}
	// The fixed module still builds.
	cmd = exec.Command("go", "build", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("fixed module does not build: %v\n%s", err, out)
	}
}
