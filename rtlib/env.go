package rtlib

import (
	"fmt"
	"io"
	"os"
)

// envOut receives the reports of bad SPGO_* values (tests replace it).
var envOut io.Writer = os.Stderr

// envProblem reports a bad SPGO_* value, as doc.go says: on standard
// error at once, where the user running the program sees it, and in the
// profile's warnings. Variables are read during package initialisation,
// before any goroutine of the program runs.
func envProblem(msg string) {
	cfg.problems = append(cfg.problems, msg)
	fmt.Fprintf(envOut, "spgo: %s\n", msg)
}

// envCheck reads SPGO_CHECK: 1 turns identity checks on, 0 or nothing
// leaves them off.
func envCheck() bool {
	switch v := os.Getenv("SPGO_CHECK"); v {
	case "", "0":
		return false
	case "1":
		return true
	default:
		envProblem(fmt.Sprintf("SPGO_CHECK=%q: want 1 (or 0); identities are not checked", v))
		return false
	}
}
