package rtlib

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/spgo/spgo/rtlib/profile"
)

// writeProfile writes the profile of every root so far to cfg.path;
// final says the program is ending, and roots still open are closed
// first (partial).
func writeProfile(final bool) error {
	prof.mu.Lock()
	defer prof.mu.Unlock()
	if final {
		for _, r := range prof.roots {
			if !r.done {
				finishRoot(r, true)
			}
		}
	}
	p := &profile.Profile{
		Schema:     profile.Schema,
		Program:    filepath.Base(os.Args[0]),
		Args:       os.Args[1:],
		PMax:       cfg.pmax,
		Threshold:  cfg.threshold,
		Census:     profile.Census{Policy: "hooks+gc-census:" + censusNames[cfg.census], ErrorBound: cfg.errBound},
		SourceRoot: cfg.srcRoot,
	}
	var parts [][]byte
	for _, r := range prof.roots {
		if r.out == nil && r.done {
			b := r.build()
			b.Antichain = antichain(r.res)
			r.out = &b
			if r.res != nil {
				r.res.DropTrace() // built: the trace is not read again
			}
		}
		if r.res != nil && r.res.TraceDropped > 0 {
			p.Warnings = append(p.Warnings, profile.Warning{Message: traceDropped(r.name, r.traceMax, r.res.TraceDropped)})
		}
		p.Partial = p.Partial || r.partial || !r.done
		// A finished root is encoded once: the profile is written again
		// at every root's end, and a test binary has a root per test.
		enc, err := r.enc, error(nil)
		if r.out == nil {
			b := r.build()
			enc, err = profile.EncodeRoot(&b)
		} else if enc == nil {
			enc, err = profile.EncodeRoot(r.out)
			r.enc = enc
		}
		if err != nil {
			return err
		}
		parts = append(parts, enc)
	}
	for _, s := range cfg.problems {
		p.Warnings = append(p.Warnings, profile.Warning{Message: s})
	}
	if s := pathsWarning(); s != "" {
		p.Warnings = append(p.Warnings, profile.Warning{Message: s})
	}
	p.Wall = &profile.Wall{Start: prof.start.UTC().Format(time.RFC3339), Seconds: time.Since(prof.start).Seconds()}
	if err := profile.WriteFileParts(cfg.path, p, parts); err != nil {
		return err
	}
	if cfg.announce && !prof.written {
		// A binary of spbuild build run by hand: the file appeared in
		// the working directory without being asked for.
		where := cfg.path
		if abs, err := filepath.Abs(where); err == nil {
			where = abs
		}
		fmt.Fprintf(os.Stderr, "spgo: profile written to %s (spreport show %s; SPGO_PROFILE sets the path, off for none)\n", where, where)
	}
	prof.written = true
	return nil
}

// traceDropped is the warning for a root whose attribution trace would
// have passed its limit after strands strands.
func traceDropped(root string, limit, strands int64) string {
	return fmt.Sprintf("%s: no per-line figures, worst-case antichain or heap series: its attribution trace would have passed SPGO_TRACE_LIMIT (%d bytes) after %d strands, and was dropped; the MHWM figures are not affected (raise SPGO_TRACE_LIMIT, or set it to 0 for no limit)", root, limit, strands)
}

// writeAtRootEnd writes the profile when a root ends: the last root of
// a test binary has no other moment.
func writeAtRootEnd() {
	if cfg.path == "off" {
		return
	}
	if err := writeProfile(false); err != nil {
		fmt.Fprintf(os.Stderr, "spgo: %v\n", err)
	}
}

// flushFinal writes the profile before the process ends abnormally.
func flushFinal() { flushNow(true) }

// flushWaiting writes the profile when every goroutine rtlib knows of
// waits and nothing it knows of can wake one: a deadlock, after which
// the Go runtime ends the process without running deferred calls, or a
// wait for a timer, a context's deadline or code outside the program
// (<-time.After(d)), after which the run goes on. The open roots are
// written as they stand, not closed: closing one ends its DAG for good,
// and a root that goes on would lose everything it does next (a test
// that waited on a timer came out as 0 B). If the process dies here, the
// profile names the roots that had not ended.
func flushWaiting() { flushNow(false) }

func flushNow(final bool) {
	if cfg.path == "off" {
		return
	}
	prof.mu.Lock()
	n := len(prof.roots)
	prof.mu.Unlock()
	if n == 0 {
		return
	}
	if err := writeProfile(final); err != nil {
		fmt.Fprintf(os.Stderr, "spgo: %v\n", err)
	}
}

// sourceName is file relative to SPGO_SOURCE_ROOT (slash-separated) when
// it lies under it, so that profiles of two checkouts compare line by
// line; else file unchanged.
func sourceName(file string) string {
	if cfg.srcRoot == "" {
		return file
	}
	rel, err := filepath.Rel(cfg.srcRoot, file)
	if err != nil || !filepath.IsLocal(rel) {
		return file
	}
	return filepath.ToSlash(rel)
}

// panicking reports whether the calling goroutine is running deferred
// calls of a panic that has not been recovered (EndRoot is deferred by
// the root's function and cannot recover without changing what the
// program prints): its stack then holds the runtime's panic frame.
func panicking() bool { return ownStack(panicStack) }

// panicStack reports whether the stack trace st holds the runtime's
// panic frame.
func panicStack(st []byte) bool {
	return bytes.Contains(st, []byte("\npanic(")) || bytes.HasPrefix(st, []byte("panic("))
}

// stackBuf is the buffer ownStack reads the calling goroutine's stack
// into: one, rtlib's, allocated once. A buffer of the caller's went to
// the heap (runtime.Stack's argument escapes), 8 KiB at each call, and
// three calls at every root's end were read as the program's bytes.
var stackBuf struct {
	sync.Mutex
	b [8 << 10]byte
}

// ownStack reports what f says of the calling goroutine's stack trace
// (its first 8 KiB).
func ownStack(f func(st []byte) bool) bool {
	stackBuf.Lock()
	defer stackBuf.Unlock()
	return f(stackBuf.b[:runtime.Stack(stackBuf.b[:], false)])
}
