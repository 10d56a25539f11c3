package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

// watchdogMark starts the line rtlib's watchdog prints when it takes the
// baton from a goroutine that kept it too long.
const watchdogMark = "spgo: warning:"

// outcome is what one run of a module's test suite gave.
type outcome struct {
	Secs     float64
	TimedOut bool               // the harness killed it
	Hung     []string           // packages whose test binary go test's -timeout stopped
	Exit     int                // the command's exit status (-1: killed)
	Tests    map[string]string  // "package Test/sub" → pass, fail, skip, or run (no result)
	Elapsed  map[string]float64 // seconds per test that ended
	Warnings []warning          // watchdog events
	Errors   []string           // spbuild's messages, build failures, panics
}

// warning is one watchdog event and the test it happened in.
type warning struct {
	Test string // "package Test" or "package" outside a test
	Line string
}

// event is the part of a go test -json event the harness reads.
type event struct {
	Action, Package, Test, Output string
	FailedBuild                   string
	Elapsed                       float64
}

// runSuite runs name with args in dir under a timeout, killing its whole
// process group when the time is up, and parses go test -json output on
// its standard output. The log of both streams goes to logPath.
func runSuite(dir string, env []string, timeout time.Duration, logPath string, name string, args ...string) (*outcome, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	o := &outcome{Secs: time.Since(start).Seconds(), TimedOut: ctx.Err() != nil, Tests: map[string]string{}, Elapsed: map[string]float64{}}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		o.Exit = exit.ExitCode()
	case o.TimedOut:
		o.Exit = -1
	default:
		return nil, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	if o.TimedOut {
		o.Errors = append(o.Errors, fmt.Sprintf("killed after the %v timeout", timeout))
	}
	log := append(append(stdout.Bytes(), "\n--- stderr ---\n"...), stderr.Bytes()...)
	if err := os.WriteFile(logPath, log, 0o644); err != nil {
		return nil, fmt.Errorf("writing the log: %w", err)
	}
	o.parse(stdout.Bytes(), stderr.Bytes())
	return o, nil
}

// instrWarning matches spbuild's report of a site it did not instrument
// (or instrumented inexactly): "spbuild: file:line:col: reason". The run
// goes on; everything else spbuild says is an error.
var instrWarning = regexp.MustCompile(`^spbuild: [^ :]+:[0-9]+(:[0-9]+)?: `)

// isError tells whether msg, noted by text, is spbuild's error rather
// than a warning of what it did not instrument.
func isError(msg string) bool {
	return (strings.HasPrefix(msg, "spbuild") && !instrWarning.MatchString(msg)) || strings.HasPrefix(msg, "killed")
}

// maxErrors caps the messages kept per run.
const maxErrors = 8

// parse reads go test -json events from stdout and spbuild's or the go
// command's messages from stderr.
func (o *outcome) parse(stdout, stderr []byte) {
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			o.text("", string(line))
			continue
		}
		key := e.Package
		if e.Test != "" {
			key += " " + e.Test
		}
		switch e.Action {
		case "run":
			o.Tests[key] = "run"
		case "pass", "fail", "skip":
			if e.Test != "" {
				o.Tests[key], o.Elapsed[key] = e.Action, e.Elapsed
			} else if e.Action == "fail" && e.FailedBuild != "" {
				o.addError("build failed: " + e.Package)
			}
		case "output", "build-output":
			if strings.HasPrefix(e.Output, "panic: test timed out after") && !slices.Contains(o.Hung, e.Package) {
				o.Hung = append(o.Hung, e.Package)
			}
			o.text(key, strings.TrimRight(e.Output, "\n"))
		}
	}
	for _, line := range strings.Split(string(stderr), "\n") {
		o.text("", line)
	}
}

// text notes a line of output: a watchdog event, or a message worth
// showing (spbuild's own, compile errors, panics and timeouts).
func (o *outcome) text(key, line string) {
	switch {
	case strings.Contains(line, watchdogMark):
		o.Warnings = append(o.Warnings, warning{Test: key, Line: line[strings.Index(line, watchdogMark):]})
	case strings.HasPrefix(line, "spbuild"),
		strings.HasPrefix(line, "panic: "),
		strings.HasPrefix(line, "fatal error: "),
		strings.HasPrefix(line, "# "),
		strings.Contains(line, ": cannot use "),
		strings.Contains(line, "undefined: "):
		o.addError(strings.TrimSpace(line))
	}
}

func (o *outcome) addError(msg string) {
	if len(o.Errors) < maxErrors {
		o.Errors = append(o.Errors, msg)
	}
}

// passed returns the tests that passed.
func (o *outcome) passed() map[string]bool {
	p := map[string]bool{}
	for k, a := range o.Tests {
		if a == "pass" {
			p[k] = true
		}
	}
	return p
}

// count returns how many tests ended with action.
func (o *outcome) count(action string) int {
	n := 0
	for _, a := range o.Tests {
		if a == action {
			n++
		}
	}
	return n
}
