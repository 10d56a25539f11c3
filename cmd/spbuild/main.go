// Command spbuild builds, runs and tests Go packages instrumented by
// spgo, and reports their p-processor memory high-water mark (MHWM): the
// most memory any schedule on p cores can need.
//
// Usage:
//
//	spbuild build [-o file] [build flags] [package]
//	spbuild run   [-pmax n | -p list] [-threshold M] [-json f] [-html f] [-pprof f] [-q] [build flags] [package] [-- program args]
//	spbuild test  [-pmax n | -p list] [-budget file] [-json f] [-html f] [-pprof f] [-run regexp] [build flags] [packages] [-- go test flags]
//
// run builds the package instrumented, runs it serially and
// deterministically with the given arguments (stdin, stdout, stderr and
// the exit status pass through), then prints the MHWM table for p = 1,
// 2, 4, …, pmax and the lines responsible for the worst case on standard
// error, never into the program's output. test does the same for go
// test, one root per test, and prints a table per package (also on
// standard error). -json writes the spgo.profile/v1 profile, -html the HTML
// report and -pprof a pprof profile, as spreport does from a profile. The user's files,
// go.mod and go.sum are never modified: instrumented sources and a
// generated go.mod live in spbuild's cache ($SPGO_CACHE, default spgo in
// the user cache directory). spbuild's temporary files live in one
// directory per run in TMPDIR (spbuild-tmp-*), removed at the end of the
// run, or when SIGINT or SIGTERM interrupts spbuild (outside the program
// or go test, which get those signals themselves: the exit status is then
// 128+n for signal n); the next spbuild removes one that a killed
// spbuild left.
//
// test checks memory budgets: those of -budget file (lines "ROOT P
// SIZE") and the //spgo:budget markers in test functions' doc comments
// (docs/budgets.md). A test whose MHWM_P, or the high end of its
// interval, exceeds its budget fails, with the lines responsible
// printed; the exit status is then 1 if go test's was 0.
//
// Exit status: run, the program's; test, go test's, or 1 when the tests
// passed and a budget failed; 2 for bad usage (a bad budget file or
// marker included); 1 when spbuild itself failed.
//
// Build flags: -tags, -race, -gcflags, -ldflags, -trimpath, -mod, and
// -instrument patterns (packages outside the main module to instrument).
package main

import (
	"fmt"
	"os"

	"github.com/spgo/spgo/driver"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == driver.ExecArg {
		os.Exit(driver.ExecTest(os.Args[2:]))
	}
	// The go command and the program get the user's environment (and
	// TMPDIR); spbuild's own temporary files go to a scratch directory.
	env := os.Environ()
	cleanup := func() {}
	s, err := newScratch()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spbuild:", err)
	} else {
		os.Setenv("TMPDIR", s.dir)
		cleanup = s.remove
	}
	in, ctx := handleInterrupts(cleanup)
	code := run(os.Args[1:], session{ctx: ctx, env: env, child: in.running})
	code = in.status(code)
	cleanup()
	os.Exit(code)
}

const usage = `usage:
	spbuild build [-o file] [build flags] [package]
	spbuild run   [-pmax n | -p list] [-threshold M] [-json f] [-html f] [-pprof f] [-q] [build flags] [package] [-- program args]
	spbuild test  [-pmax n | -p list] [-budget file] [-json f] [-html f] [-pprof f] [-run regexp] [build flags] [packages] [-- go test flags]
Run 'spbuild <command> -h' for the flags of a command.
`

// run is the whole command, in the session se. It returns the exit
// status.
func run(args []string, se session) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	switch args[0] {
	case "build":
		return cmdBuild(args[1:], se)
	case "run":
		return cmdRun(args[1:], se)
	case "test":
		return cmdTest(args[1:], se)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(os.Stdout, usage)
		return 0
	}
	fmt.Fprintf(os.Stderr, "spbuild: unknown command %q\n%s", args[0], usage)
	return 2
}
