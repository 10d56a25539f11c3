package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spgo/spgo/driver"
	"github.com/spgo/spgo/internal/report"
	"github.com/spgo/spgo/rewrite"
	"github.com/spgo/spgo/rewrite/escape"
	"github.com/spgo/spgo/rtlib/profile"
)

// common holds the flags every command takes.
type common struct {
	fs         *flag.FlagSet
	tags       string
	race       bool
	trimpath   bool
	gcflags    string
	ldflags    string
	mod        string
	instrument multi
	verbose    bool
	session
}

// session is what every command of one spbuild run shares.
type session struct {
	ctx   context.Context // cancelled when spbuild is interrupted
	env   []string        // the go command's and the program's environment
	child func(bool)      // driver.Config.Child
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func newCommon(name string, se session, synopsis string) *common {
	c := &common{fs: flag.NewFlagSet("spbuild "+name, flag.ContinueOnError), session: se}
	c.fs.StringVar(&c.tags, "tags", "", "comma-separated build tags")
	c.fs.BoolVar(&c.race, "race", false, "build with the race detector")
	c.fs.BoolVar(&c.trimpath, "trimpath", false, "passed to the go command")
	c.fs.StringVar(&c.gcflags, "gcflags", "", "passed to the go command")
	c.fs.StringVar(&c.ldflags, "ldflags", "", "passed to the go command")
	c.fs.StringVar(&c.mod, "mod", "", "passed to the go command (readonly, vendor, mod)")
	c.fs.Var(&c.instrument, "instrument", "also instrument the packages matching this pattern (repeatable)")
	c.fs.BoolVar(&c.verbose, "v", false, "print what spbuild does (cache hits, warnings in full)")
	c.fs.Usage = func() {
		fmt.Fprintf(c.fs.Output(), "usage: spbuild %s\n", synopsis)
		c.fs.PrintDefaults()
	}
	return c
}

// parse parses args up to "--" and returns the positional arguments and
// those after "--".
func (c *common) parse(args []string) (pos, rest []string, err error) {
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	// Flags may follow the package: parse repeatedly.
	for {
		if err := c.fs.Parse(args); err != nil {
			return nil, nil, err
		}
		args = c.fs.Args()
		if len(args) == 0 {
			return pos, rest, nil
		}
		i := 0
		for i < len(args) && !strings.HasPrefix(args[i], "-") {
			i++
		}
		pos = append(pos, args[:i]...)
		args = args[i:]
		if len(args) == 0 {
			return pos, rest, nil
		}
	}
}

func (c *common) config(tests bool) driver.Config {
	var bf []string
	if c.tags != "" {
		bf = append(bf, "-tags="+c.tags)
	}
	if c.race {
		bf = append(bf, "-race")
	}
	if c.trimpath {
		bf = append(bf, "-trimpath")
	}
	if c.gcflags != "" {
		bf = append(bf, "-gcflags="+c.gcflags)
	}
	if c.ldflags != "" {
		bf = append(bf, "-ldflags="+c.ldflags)
	}
	if c.mod != "" {
		bf = append(bf, "-mod="+c.mod)
	}
	cfg := driver.Config{Tests: tests, BuildFlags: bf, Instrument: c.instrument, Env: c.env, Child: c.child}
	if c.verbose {
		cfg.Log = os.Stderr
	}
	return cfg
}

// prepare instruments, printing warnings; it reports errors itself and
// returns nil then.
func (c *common) prepare(cfg driver.Config, patterns []string) *driver.Prepared {
	p, err := driver.Prepare(c.ctx, cfg, patterns...)
	if err != nil {
		c.fail(err)
		return nil
	}
	warnings(p.Warnings, c.verbose)
	return p
}

// warnings prints what was not instrumented: all of it with -v, else a
// count per reason.
func warnings(ws []rewrite.Warning, verbose bool) {
	if verbose {
		for _, w := range ws {
			fmt.Fprintf(os.Stderr, "spbuild: %s\n", w)
		}
		return
	}
	counts := map[string]int{}
	first := map[string]string{}
	for _, w := range ws {
		key := w.Reason
		if counts[key] == 0 {
			first[key] = w.String()
		}
		counts[key]++
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if counts[k] == 1 {
			fmt.Fprintf(os.Stderr, "spbuild: %s\n", first[k])
		} else {
			fmt.Fprintf(os.Stderr, "spbuild: %s (and %d more like it; -v lists them)\n", first[k], counts[k]-1)
		}
	}
}

// fail prints err, unless spbuild was interrupted (the go command or
// the program it ran failed for that: the interruption is the news).
func (c *common) fail(err error) {
	if c.ctx.Err() == nil {
		fail(err)
	}
}

// fail prints err without a stack trace.
func fail(err error) {
	var le *rewrite.LoadError
	var ee *escape.BuildError
	var ge *driver.GoError
	switch {
	case errors.As(err, &le):
		fmt.Fprintln(os.Stderr, "spbuild: the packages do not build (fix the errors below):")
		for _, m := range le.Errors {
			if strings.HasPrefix(m, "-: # ") {
				if len(le.Errors) > 1 {
					continue // the go command's copy of the type checker's messages
				}
				m = strings.TrimPrefix(m, "-: ") // the go command's only: its own lines
			}
			fmt.Fprintln(os.Stderr, "\t"+strings.ReplaceAll(m, "\n", "\n\t"))
		}
	case errors.As(err, &ee):
		// Compiling the original packages for the escape analysis failed.
		fmt.Fprintln(os.Stderr, "spbuild: the packages do not build, without spbuild either (fix the errors below):")
		for _, m := range ee.Problems {
			fmt.Fprintln(os.Stderr, "\t"+m)
		}
	case errors.As(err, &ge) && ge.Stderr == "":
		// The go command printed its messages already.
		fmt.Fprintf(os.Stderr, "spbuild: go %s failed\n", ge.Args[0])
	default:
		fmt.Fprintln(os.Stderr, "spbuild:", err)
	}
}

// pflags are the figures' flags of run and test.
type pflags struct {
	pmax  int
	plist string
	json  string
	html  string
	pprof string
	lines int
}

func (f *pflags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.pmax, "pmax", 64, "compute MHWM_p for every p up to this (1..1024)")
	fs.StringVar(&f.plist, "p", "", "comma-separated processor counts to show (pmax becomes the largest)")
	fs.StringVar(&f.json, "json", "", "write the spgo.profile/v1 profile to this file (- for standard output)")
	fs.StringVar(&f.html, "html", "", "write the HTML report (as spreport html) to this file (- for standard output)")
	fs.StringVar(&f.pprof, "pprof", "", "write a pprof profile (as spreport pprof) to this file (- for standard output)")
	fs.IntVar(&f.lines, "lines", 10, "lines to list per root in the text report (the HTML report lists at least 20)")
}

// write writes the files asked for: the profile, the HTML report (titled
// with the command line) and the pprof profile.
func (f *pflags) write(p *profile.Profile, title string) error {
	switch f.json {
	case "":
	case "-":
		if err := profile.Encode(os.Stdout, p); err != nil {
			return err
		}
	default:
		if err := profile.WriteFile(f.json, p); err != nil {
			return err
		}
	}
	if f.html != "" {
		o := report.HTMLOptions{Title: title, Lines: max(f.lines, 20)}
		if err := report.WriteFile(f.html, func(w io.Writer) error { return report.WriteHTML(w, p, o) }); err != nil {
			return err
		}
	}
	if f.pprof != "" {
		if err := report.WriteFile(f.pprof, func(w io.Writer) error { return report.WritePprof(w, p, report.PprofOptions{}) }); err != nil {
			return err
		}
	}
	return nil
}

// resolve checks the flags and returns pmax and the p's to show (nil:
// the default 1, 2, 4, …).
func (f *pflags) resolve() (int, []int, error) {
	if f.plist == "" {
		if f.pmax < 1 || f.pmax > 1024 {
			return 0, nil, fmt.Errorf("-pmax %d: want 1..1024", f.pmax)
		}
		return f.pmax, nil, nil
	}
	var ps []int
	for _, s := range strings.Split(f.plist, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || p < 1 || p > 1024 {
			return 0, nil, fmt.Errorf("-p %q: want a comma-separated list of processor counts in 1..1024", f.plist)
		}
		ps = append(ps, p)
	}
	sort.Ints(ps)
	return ps[len(ps)-1], ps, nil
}

// parseBytes reads a positive size: a number with an optional binary
// unit (report.ParseSize).
func parseBytes(s string) (int64, error) {
	n, err := report.ParseSize(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: want a positive size such as 512MiB", s)
	}
	return n, nil
}
