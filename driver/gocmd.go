package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"os"
	"os/exec"
	"strings"
	"time"
)

// MinGo is the oldest Go toolchain spbuild works with (rtlib uses the
// standard library of Go 1.25).
const MinGo = "go1.25"

// goEnv is what spbuild needs to know of the go command's environment.
type goEnv struct {
	GOVERSION, GOMOD, GOWORK, GOFLAGS, GOOS, GOARCH, CGO_ENABLED, GOEXPERIMENT, GOTOOLCHAIN, GOMODCACHE string
}

// readGoEnv runs `go env -json` in dir.
func readGoEnv(ctx context.Context, dir string, env []string) (*goEnv, error) {
	out, err := goOutput(ctx, dir, env, "env", "-json", "GOVERSION", "GOMOD", "GOWORK", "GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOTOOLCHAIN", "GOMODCACHE")
	if err != nil {
		return nil, err
	}
	var e goEnv
	if err := json.Unmarshal(out, &e); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	if v := version.Lang(e.GOVERSION); v == "" || version.Compare(e.GOVERSION, MinGo) < 0 {
		return nil, fmt.Errorf("the go command is %s; spbuild needs %s or newer (check PATH and GOTOOLCHAIN)", e.GOVERSION, MinGo)
	}
	return &e, nil
}

// GoError is a go command that failed; Stderr holds its messages (the
// compiler's, with positions).
type GoError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GoError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return "go " + strings.Join(e.Args, " ") + ":\n" + msg
}

func (e *GoError) Unwrap() error { return e.Err }

// goCommand returns the go command with args, to run in dir with env.
// When ctx is cancelled (spbuild interrupted), the command is
// interrupted, so that it removes its work directory, and killed only if
// it has not ended within goWaitDelay.
func goCommand(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = goWaitDelay
	return cmd
}

// goWaitDelay is how long an interrupted go command has to end.
const goWaitDelay = 5 * time.Second

// goOutput runs the go command and returns its standard output.
func goOutput(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := goCommand(ctx, dir, env, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("the go command was not found on PATH: %w", err)
		}
		return nil, &GoError{Args: args, Stderr: stderr.String(), Err: err}
	}
	return stdout.Bytes(), nil
}

// environ returns env, or the process's environment when env is nil.
func environ(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// setEnv returns env with key set to value (later entries win in
// os/exec, but a clean list is easier to read in errors).
func setEnv(env []string, key, value string) []string {
	return append(withoutEnv(env, key), key+"="+value)
}
