//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestInterrupted interrupts spbuild (SIGINT, SIGTERM) while it waits
// for the go command: it must interrupt the go command, remove its
// temporary files and exit with 128+n at once; the next spbuild then
// finds TMPDIR as clean as it leaves it. The go command is a script that
// says when it runs (through a FIFO, so no waiting on the clock) and then
// sleeps until a signal ends it.
func TestInterrupted(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/i\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"})
	fake := t.TempDir()
	script := `#!/bin/sh
if [ "$1" = env ]; then
	echo '{"GOVERSION": "go1.26.0", "GOMOD": "` + filepath.Join(dir, "go.mod") + `"}'
	exit 0
fi
echo $$ > "$FAKE_READY"
exec sleep 100000
`
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp, cache := t.TempDir(), t.TempDir()
			ready := filepath.Join(t.TempDir(), "ready")
			if err := syscall.Mkfifo(ready, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(spbuildBin, "build", "-o", filepath.Join(t.TempDir(), "bin"), ".")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+fake+":"+os.Getenv("PATH"), "TMPDIR="+tmp, "SPGO_CACHE="+cache, "FAKE_READY="+ready)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			pids := make(chan int, 1)
			go func() {
				f, err := os.Open(ready) // blocks until the script opens it
				if err != nil {
					return
				}
				defer f.Close()
				line, _ := bufio.NewReader(f).ReadString('\n')
				pid, _ := strconv.Atoi(strings.TrimSpace(line))
				pids <- pid
			}()
			var pid int
			select {
			case pid = <-pids:
			case err := <-exited:
				os.WriteFile(ready, nil, 0) // let the reader go
				t.Fatalf("spbuild ended before it ran the go command: %v\n%s", err, stderr.String())
			}
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			if names, _ := filepath.Glob(filepath.Join(tmp, "*")); len(names) == 0 {
				t.Fatal("spbuild keeps nothing in TMPDIR while the go command runs: this test tests nothing")
			}
			cmd.Process.Signal(sig)
			err := <-exited
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("spbuild: %v, want exit status %d", err, 128+int(sig))
			}
			if !strings.Contains(stderr.String(), "spbuild: interrupted") || strings.Contains(stderr.String(), "go list") {
				t.Errorf("stderr:\n%s", stderr.String())
			}
			if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("the go command (pid %d) still runs: %v", pid, err)
			}
			if names, _ := filepath.Glob(filepath.Join(tmp, "*")); len(names) != 0 {
				t.Errorf("left in TMPDIR: %v", names)
			}
			env := append(os.Environ(), "TMPDIR="+tmp, "SPGO_CACHE="+cache)
			if _, stderr, code := spbuildEnv(t, dir, env, "build", "-o", filepath.Join(t.TempDir(), "bin"), "."); code != 0 {
				t.Fatalf("the next spbuild: exit %d\n%s", code, stderr)
			}
			if names, _ := filepath.Glob(filepath.Join(tmp, "*")); len(names) != 0 {
				t.Errorf("left in TMPDIR after the next run: %v", names)
			}
		})
	}
}
