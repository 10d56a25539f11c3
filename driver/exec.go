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
	args := append([]string{"test"}, p.Flags...)
	args = append(args, "-count=1", "-vet=off", "-exec="+quoteField(self)+" "+ExecArg+" "+quoteField(profDir))
	args = append(args, cfg.BuildFlags...)
	args = append(args, pkgs...)
	args = append(args, testArgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = cfg.Dir
	cmd.Env = p.Env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return runChild(cmd)
}

// quoteField quotes s for the go command's -exec flag when it has spaces.
func quoteField(s string) string {
	if strings.ContainsAny(s, " \t'\"") {
		return "'" + strings.ReplaceAll(s, "'", "") + "'"
	}
	return s
}

// ProfileFor is the profile path under profDir of the test binary that
// runs in directory dir (go test runs each in its package's directory).
func ProfileFor(profDir, dir string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	return filepath.Join(profDir, hex.EncodeToString(sum[:8])+".json")
}

// ExecTest is spbuild acting as go test's -exec program: args are the
// profile directory, the test binary and its arguments. It runs the
// binary with SPGO_PROFILE set for its package and returns its exit
// status.
func ExecTest(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "spbuild: "+ExecArg+": want a profile directory and a test binary")
		return 2
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild:", err)
		return 2
	}
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Env = append(os.Environ(), "SPGO_PROFILE="+ProfileFor(args[0], wd))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	code, err := runChild(cmd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild:", err)
		return 2
	}
	return code
}
