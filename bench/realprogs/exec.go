package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// outcome is how one run of a program ended.
type outcome struct {
	stdout   []byte
	stderr   []byte
	code     int // exit status; -1 if it did not exit
	secs     float64
	timedOut bool
}

// command is one run: argv in dir with env, stdin from a file.
type command struct {
	argv  []string
	dir   string
	env   []string
	stdin string // a file, "" for none
}

// run runs c to its end or until timeout, when it kills the whole
// process group (spbuild run's child with it).
func run(c command, timeout time.Duration) (outcome, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Dir, cmd.Env = c.dir, c.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if c.stdin != "" {
		f, err := os.Open(c.stdin)
		if err != nil {
			return outcome{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return outcome{}, fmt.Errorf("start %s: %w", c.argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	o := outcome{code: -1}
	select {
	case err = <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
		o.timedOut = true
	}
	o.secs = time.Since(start).Seconds()
	o.stdout, o.stderr = out.Bytes(), errb.Bytes()
	var ee *exec.ExitError
	switch {
	case err == nil:
		o.code = 0
	case errors.As(err, &ee):
		if !o.timedOut {
			o.code = ee.ExitCode()
		}
	default:
		return o, err
	}
	// A child left behind in the group (a plugin, a daemon) goes too.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return o, nil
}

// sh runs a setup command in dir, returning its output on failure.
func (h *runner) sh(dir string, env []string, argv ...string) error {
	_, err := h.output(dir, env, argv...)
	return err
}

// output runs a setup command in dir and returns its standard output.
func (h *runner) output(dir string, env []string, argv ...string) ([]byte, error) {
	o, err := run(command{argv: argv, dir: dir, env: env}, h.timeout)
	if err != nil {
		return nil, err
	}
	if o.timedOut || o.code != 0 {
		return nil, fmt.Errorf("%s: exit %d%s\n%s", strings.Join(argv, " "), o.code, map[bool]string{true: " (timed out)"}[o.timedOut], tail(o.stderr, 20))
	}
	return o.stdout, nil
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
