package driver

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	modpath "golang.org/x/mod/module"
)

// A test binary that times out prints every goroutine's stack. Goroutines
// waiting in a dependency spbuild did not instrument (a mock clock that
// sleeps between its steps, a library's worker blocked on its own
// channel) are the usual cause of a hang under spbuild that go test does
// not have: that code runs without the baton and rtlib does not see it
// wait. hangWatcher reads the dump as it passes through and names those
// modules, with the flag that instruments them.

// timeoutLine starts the testing package's report of a test binary that
// ran past -timeout.
const timeoutLine = "panic: test timed out after "

// modelled are the modules whose packages rtlib implements at the calls
// into them: instrumenting them is not the cure.
var modelled = []string{"golang.org/x/sync"}

// hangWatcher passes a test binary's standard error through and, after a
// timeout report, collects the modules of the module cache (modCache)
// whose files appear in the goroutine dump.
type hangWatcher struct {
	w        io.Writer
	modCache string
	line     []byte
	timedOut bool
	mods     []string
}

func newHangWatcher(w io.Writer, modCache string) *hangWatcher {
	return &hangWatcher{w: w, modCache: filepath.Clean(modCache)}
}

func (h *hangWatcher) Write(b []byte) (int, error) {
	for _, c := range b {
		if c != '\n' {
			if len(h.line) < 4096 {
				h.line = append(h.line, c)
			}
			continue
		}
		h.take(string(h.line))
		h.line = h.line[:0]
	}
	return h.w.Write(b)
}

// take reads one line of the binary's standard error.
func (h *hangWatcher) take(line string) {
	if strings.HasPrefix(line, timeoutLine) {
		h.timedOut = true
		return
	}
	if !h.timedOut || h.modCache == "" || h.modCache == "." {
		return
	}
	if mod := cacheModule(line, h.modCache); mod != "" && !slices.Contains(h.mods, mod) && !slices.Contains(modelled, mod) {
		h.mods = append(h.mods, mod)
	}
}

// cacheModule returns the module path of a goroutine dump's file line
// ("\t/modcache/github.com/!a/b@v1.2.3/x.go:12 +0x1d") in the module
// cache modCache, "" for any other line.
func cacheModule(line, modCache string) string {
	file := strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(file, modCache+"/")
	if !ok {
		return ""
	}
	at := strings.Index(rest, "@")
	if at < 0 {
		return ""
	}
	path, err := modpath.UnescapePath(rest[:at])
	if err != nil || strings.HasPrefix(path, "cache/") {
		return ""
	}
	return path
}

// hint returns the message for a timed-out binary whose goroutines
// waited in uninstrumented modules, "" otherwise.
func (h *hangWatcher) hint() string {
	if !h.timedOut || len(h.mods) == 0 {
		return ""
	}
	slices.Sort(h.mods)
	flags := make([]string, len(h.mods))
	for i, m := range h.mods {
		flags[i] = "-instrument '" + m + "/...'"
	}
	return fmt.Sprintf("spbuild: the test binary timed out with goroutines in code spbuild did not instrument (%s): code that sleeps or waits on its own channels runs there without spbuild seeing it, and can keep the goroutines it should let run from running; %s lets spbuild schedule it",
		strings.Join(h.mods, ", "), strings.Join(flags, " "))
}
