package driver

import (
	"cmp"
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
// the binary to out. The go command's messages go to stderr, positions
// mapped to the user's files; a failure is a *BuildError.
func (p *Prepared) Build(ctx context.Context, cfg Config, out, pkg string, stderr io.Writer) error {
	args := append([]string{"build"}, p.Flags...)
	args = append(args, cfg.BuildFlags...)
	args = append(args, "-o", out, "--", pkg)
	return p.build(ctx, cfg, args, pkg, stderr)
}

// Program is how to run an instrumented program.
type Program struct {
	Args           []string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Env            []string // added to the environment (SPGO_PMAX, ...)
	Dir            string   // working directory; "" is cfg.Dir
	BuildStderr    io.Writer
	// Profile is where the runtime writes the profile (SPGO_PROFILE);
	// Run notes the runtime's report that it could not (Exit.ProfileErr).
	Profile string
}

// Exit is how a program that Run ran ended.
type Exit struct {
	// Code is the exit status, 128+n for a signal n (as a shell says).
	Code int
	// Signal is the signal that ended the program; 0 if it exited.
	Signal syscall.Signal
	// ProfileErr is the runtime's report, on the program's standard
	// error, that it could not write the profile ("" if there was none).
	ProfileErr string
}

// Run builds pkg instrumented into a temporary directory and runs it,
// and says how it ended; err is set only when the program could not be
// built or started. While the program runs, spbuild ignores interrupts:
// the terminal delivers them to the program, which writes its profile.
func (p *Prepared) Run(ctx context.Context, cfg Config, pkg string, prog Program) (Exit, error) {
	if err := p.checkMain(pkg); err != nil {
		return Exit{}, err
	}
	tmp, err := os.MkdirTemp("", "spbuild-run-*")
	if err != nil {
		return Exit{}, fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	name := path.Base(pkg) // an import path
	if abs, err := filepath.Abs(filepath.Join(cfg.Dir, pkg)); err == nil && strings.HasPrefix(pkg, ".") {
		name = filepath.Base(abs) // a directory: the go command's name
	}
	bin := filepath.Join(tmp, name)
	if err := p.Build(ctx, cfg, bin, pkg, prog.BuildStderr); err != nil {
		return Exit{}, err
	}
	cmd := exec.Command(bin, prog.Args...)
	cmd.Dir = prog.Dir
	if cmd.Dir == "" {
		cmd.Dir = cfg.Dir
	}
	cmd.Env = append(environ(cfg.Env), prog.Env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = prog.Stdin, prog.Stdout, prog.Stderr
	var watch *lossWatcher
	if prog.Profile != "" {
		cmd.Env = append(cmd.Env, "SPGO_PROFILE="+prog.Profile)
		watch = newLossWatcher(prog.Stderr, prog.Profile)
		cmd.Stderr = watch
	}
	e, err := runChild(cmd, cfg.Child)
	if watch != nil {
		e.ProfileErr = watch.reason()
	}
	return e, err
}

// runChild runs cmd to its end with interrupts ignored here (SIGTERM is
// passed on), and says how it ended. child, if not nil, is told when cmd
// runs (Config.Child).
func runChild(cmd *exec.Cmd, child func(bool)) (Exit, error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if child != nil {
		child(true)
		defer child(false)
	}
	if err := cmd.Start(); err != nil {
		return Exit{}, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sig:
				if s == syscall.SIGTERM {
					cmd.Process.Signal(s) // not sent by a terminal: pass it on
				}
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	return exitStatus(cmd, err)
}

// exitStatus says how cmd, waited for with the result err, ended.
func exitStatus(cmd *exec.Cmd, err error) (Exit, error) {
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return Exit{}, err
	}
	st := cmd.ProcessState
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Exit{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}, nil
	}
	return Exit{Code: st.ExitCode()}, nil
}

// ExecArg is the argument that makes spbuild act as go test's -exec
// program (see ExecTest).
const ExecArg = "__spgo_exec"

// execModCacheVar names, in the environment of the -exec program, the
// module cache (GOMODCACHE), for the hint after a test timeout (hang.go).
const execModCacheVar = "SPGO_EXEC_MODCACHE"

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
	env := setEnv(p.Env, execProfilesVar, profDir)
	if p.modCache != "" {
		env = setEnv(env, execModCacheVar, p.modCache)
	}
	cmd := goCommand(ctx, cfg.Dir, env, args...)
	mapped := p.positionWriter(stderr, cfg.Dir)
	cmd.Stdout, cmd.Stderr = stdout, mapped
	e, err := runChild(cmd, cfg.Child)
	mapped.Flush()
	return e.Code, err
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
	hang := newHangWatcher(stderr, os.Getenv(execModCacheVar))
	watch := newLossWatcher(hang, prof)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(withoutEnv(withoutEnv(os.Environ(), execProfilesVar), execModCacheVar), "SPGO_PROFILE="+prof)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, watch
	e, err := runChild(cmd, nil)
	if err != nil {
		return 2, err
	}
	if h := hang.hint(); h != "" {
		fmt.Fprintln(stderr, h)
	}
	if why := watch.reason(); why != "" {
		return max(e.Code, 1), fmt.Errorf("the test profile %s was not written (above): failing the run so that it is not lost%s", prof, lossHint(why, profDir))
	}
	return e.Code, nil
}

// lossWatcher passes a program's standard error through and notes the
// first line that holds needle, the runtime's report of a profile it
// could not write.
type lossWatcher struct {
	w      io.Writer
	needle string
	line   []byte // the current line's start, up to len(needle)+maxReason bytes
	found  string // what followed needle on its line
}

// maxReason is how much of a reported write error lossWatcher keeps.
const maxReason = 512

// newLossWatcher watches for the runtime's report that it could not
// write the profile at path, passing everything through to w.
func newLossWatcher(w io.Writer, path string) *lossWatcher {
	return &lossWatcher{w: w, needle: "write profile " + path + ":"}
}

func (l *lossWatcher) Write(b []byte) (int, error) {
	for _, c := range b {
		if c == '\n' {
			l.check()
			l.line = l.line[:0]
		} else if len(l.line) < len(l.needle)+maxReason {
			l.line = append(l.line, c)
		}
	}
	return l.w.Write(b)
}

func (l *lossWatcher) check() {
	if l.found != "" {
		return
	}
	if _, after, ok := strings.Cut(string(l.line), l.needle); ok {
		l.found = cmp.Or(strings.TrimSpace(after), "unknown error")
	}
}

// reason returns the error reported after needle (on a last line
// without a newline too), "" if there was none.
func (l *lossWatcher) reason() string {
	l.check()
	return l.found
}

// lossHint says what to do about a profile that could not be written
// into dir for the reason the runtime gave ("" when it has nothing to
// add): room, when the file system is full.
func lossHint(reason, dir string) string {
	if strings.Contains(reason, syscall.ENOSPC.Error()) || strings.Contains(reason, "disk quota exceeded") {
		return fmt.Sprintf(" (no room in %s, spbuild's temporary directory under TMPDIR): free space on that file system or set TMPDIR to a directory with room, and run again", dir)
	}
	return ""
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
