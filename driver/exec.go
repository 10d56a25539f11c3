package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// Build runs `go build` on pkg with the instrumented packages, writing
// the binary to out. The go command's messages go to stderr.
func (p *Prepared) Build(ctx context.Context, cfg Config, out, pkg string, stderr io.Writer) error {
	args := append([]string{"build"}, p.Flags...)
	args = append(args, cfg.BuildFlags...)
	args = append(args, "-o", out, "--", pkg)
	return p.goRun(ctx, cfg, args, nil, stderr)
}

// goRun runs the go command in cfg.Dir with p's environment.
func (p *Prepared) goRun(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = cfg.Dir
	cmd.Env = p.Env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		return &GoError{Args: args, Err: err}
	}
	return nil
}

// Program is how to run an instrumented program.
type Program struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Env            []string // added to the environment (SPGO_PROFILE, SPGO_PMAX, ...)
	Dir            string   // working directory; "" is cfg.Dir
	BuildStderr    io.Writer
}

// Run builds pkg instrumented into a temporary directory and runs it. It
// returns the program's exit status (128+n for a signal n, as a shell
// says); err is set only when the program could not be built or
// started. While the program runs, spbuild ignores interrupts: the
// terminal delivers them to the program, which writes its profile.
func (p *Prepared) Run(ctx context.Context, cfg Config, pkg string, prog Program) (int, error) {
	tmp, err := os.MkdirTemp("", "spbuild-run-*")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	name := path.Base(pkg) // an import path
	if abs, err := filepath.Abs(filepath.Join(cfg.Dir, pkg)); err == nil && strings.HasPrefix(pkg, ".") {
		name = filepath.Base(abs) // a directory: the go command's name
	}
	bin := filepath.Join(tmp, name)
	if err := p.Build(ctx, cfg, bin, pkg, prog.BuildStderr); err != nil {
		return 0, err
	}
	cmd := exec.Command(bin, prog.Args...)
	cmd.Dir = prog.Dir
	if cmd.Dir == "" {
		cmd.Dir = cfg.Dir
	}
	cmd.Env = append(environ(cfg.Env), prog.Env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = prog.Stdin, prog.Stdout, prog.Stderr
	return runChild(cmd)
}

// runChild runs cmd to its end with interrupts ignored here, and returns
// its exit status.
func runChild(cmd *exec.Cmd) (int, error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() {
		for s := range sig {
			if s == syscall.SIGTERM && cmd.Process != nil {
				cmd.Process.Signal(s) // not sent by a terminal: pass it on
			}
		}
	}()
	err := cmd.Wait()
	return exitStatus(cmd, err)
}

func exitStatus(cmd *exec.Cmd, err error) (int, error) {
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return 0, err
	}
	st := cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	return st.ExitCode(), nil
}

// ExecArg is the argument that makes spbuild act as go test's -exec
// program (see ExecTest).
const ExecArg = "__spgo_exec"

// execProfilesVar names, in the environment go test passes to its -exec
// program, the directory of the test binaries' profiles. It is not on
// -exec's command line, which the go command splits on spaces and
// quotes: a TMPDIR with both kinds of quote could not be written there.
const execProfilesVar = "SPGO_EXEC_PROFILES"

// Test runs `go test` on pkgs with the instrumented packages. Every test
// binary runs through spbuild itself (-exec), which gives it a profile
// path of its own under profDir (see ProfileFor). testArgs are passed to
// go test after the packages (flags for the test binaries included). It
// returns go test's exit status.
func (p *Prepared) Test(ctx context.Context, cfg Config, pkgs, testArgs []string, profDir string, stdout, stderr io.Writer) (int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("-exec: %w", err)
	}
	quoted, err := quoteField(self)
	if err != nil {
		return 0, fmt.Errorf("go test -exec cannot name spbuild: %w; run a copy of spbuild from another directory", err)
	}
	args := append([]string{"test"}, p.Flags...)
	args = append(args, "-count=1", "-vet=off", "-exec="+quoted+" "+ExecArg)
	args = append(args, cfg.BuildFlags...)
	args = append(args, pkgs...)
	args = append(args, testArgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = cfg.Dir
	cmd.Env = setEnv(p.Env, execProfilesVar, profDir)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return runChild(cmd)
}

// quoteField quotes s as one field of a go command flag that holds a
// command line (-exec), which the go command splits on spaces and lets
// quote with ' or " (no escapes): s with both cannot be quoted.
func quoteField(s string) (string, error) {
	switch {
	case s != "" && !strings.ContainsAny(s, " \t\n\r'\""):
		return s, nil
	case !strings.Contains(s, "'"):
		return "'" + s + "'", nil
	case !strings.Contains(s, `"`):
		return `"` + s + `"`, nil
	}
	return "", fmt.Errorf("%q has both kinds of quote", s)
}

// ProfileFor is the profile path under profDir of the test binary that
// runs in directory dir (go test runs each in its package's directory).
func ProfileFor(profDir, dir string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	return filepath.Join(profDir, hex.EncodeToString(sum[:8])+".json")
}

// ExecTest is spbuild acting as go test's -exec program: args are the
// test binary and its arguments, the profile directory is in the
// environment. It runs the binary with SPGO_PROFILE set for its package
// and returns its exit status. A profile that cannot be written is not
// lost silently (go test shows a passing package's output only with -v):
// a missing profile directory stops the run before the binary starts,
// and a profile the binary reports it could not write fails the run.
func ExecTest(args []string) int {
	code, err := execTest(args, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild:", err)
		return max(code, 2)
	}
	return code
}

// execTest is ExecTest with its streams.
func execTest(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	profDir := os.Getenv(execProfilesVar)
	if len(args) < 1 || profDir == "" {
		return 2, errors.New(ExecArg + ": want a test binary, and " + execProfilesVar + " in the environment")
	}
	if fi, err := os.Stat(profDir); err != nil || !fi.IsDir() {
		return 2, fmt.Errorf("the directory for the test profiles is missing (%v): no profile could be written", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return 2, err
	}
	prof := ProfileFor(profDir, wd)
	watch := &lossWatcher{w: stderr, needle: "write profile " + prof + ":"}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(withoutEnv(os.Environ(), execProfilesVar), "SPGO_PROFILE="+prof)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, watch
	code, err := runChild(cmd)
	if err != nil {
		return 2, err
	}
	if watch.seen() {
		return max(code, 1), fmt.Errorf("the test profile %s was not written (above): failing the run so that it is not lost", prof)
	}
	return code, nil
}

// lossWatcher passes a test binary's standard error through and notes
// whether a line held needle (the runtime's report of a profile it could
// not write).
type lossWatcher struct {
	w      io.Writer
	needle string
	line   []byte // the current line's start, up to len(needle)+64 bytes
	found  bool
}

func (l *lossWatcher) Write(b []byte) (int, error) {
	for _, c := range b {
		if c == '\n' {
			l.check()
			l.line = l.line[:0]
		} else if len(l.line) < len(l.needle)+64 {
			l.line = append(l.line, c)
		}
	}
	return l.w.Write(b)
}

func (l *lossWatcher) check() {
	if strings.Contains(string(l.line), l.needle) {
		l.found = true
	}
}

// seen reports whether needle was written (on a last line without a
// newline too).
func (l *lossWatcher) seen() bool {
	l.check()
	return l.found
}

// withoutEnv returns env without key.
func withoutEnv(env []string, key string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return out
}
