// Command spreport reads spgo profiles (spgo.profile/v1, written by
// spbuild run/test -json) and reports on them.
//
// Usage:
//
//	spreport show  [-q n] [-p list] [-by line|type] [-lines n] [-root name] profile.json
//	spreport curve [-lines n] [-root name] profile.json
//	spreport diff  [-q n] [-max-increase PCT|SIZE [-allow-removed]] [-noise SIZE,PCT] [-format text|markdown|github] [-lines n] [-root name] base.json change.json
//	spreport diff  -qs q,q2 [flags] profile.json
//	spreport html  [-o file] [-src dir] [-q n] [-by line|func|type] [-lines n] [-diff base.json [-noise SIZE,PCT] | -qs q,q2] profile.json
//	spreport pprof [-o file] [-q list] [-by line|type] [-root name] profile.json
//
// show prints, per root, MHWM_p for the chosen p with the serial peak and
// whether the figures are exact, then the lines that make up the worst
// case at q (default the largest p): bytes, share, split into running,
// completed and suspended strands, and the source line. curve states
// how MHWM_p grows with p and which lines make up the growth. diff
// compares two profiles (roots matched by name, lines by function and
// source text) or two processor counts of one; its per-line deltas sum
// exactly to the change of MHWM. With -max-increase it is a CI gate: it
// exits 1 when a root's MHWM grew past the limit (5% or 64MiB, say; a
// root the base lacks grew from 0) and lists the responsible lines
// first. html writes one self-contained page (charts, source of the
// files below the profile's source root, the serial run's heap over
// time, a diff view); pprof writes a pprof profile with sample types mhwm_<q>,
// alloc_space and alloc_objects for go tool pprof. With -by type, show
// lists the worst case by the static type of the values allocated
// ([]byte, *main.Node, …) instead of by line, html adds that table and
// draws the heap bands by type, and pprof splits each line's sample by
// type under the label "type". For a root recorded by spbuild run
// -simulate, show and html also give the work and span per spawn site
// (in strands, deterministic, and in wall-clock time, which varies).
//
// A diff of two profiles has a noise floor (-noise, default max(32 KiB,
// 1 %) of a line's or root's larger figure): lines that moved within it
// by runtime jitter are summarised in one row, not listed nor annotated,
// and a matched root within it does not fail the gate. An edited line
// is matched to its former self (same file and function, similar text,
// nearest position). Lines are listed increases first, then decreases,
// each largest first.
//
// Exit status: 0; 1 when the diff gate fails (a root grew past
// -max-increase and beyond the noise floor); 2 for bad usage or input
// (a file that is not a valid spgo profile gets one line saying why).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spgo/spgo/internal/report"
	"github.com/spgo/spgo/rtlib/profile"
)

const usage = `usage:
	spreport show  [-q n] [-p list] [-by line|type] [-lines n] [-root name] profile.json
	spreport curve [-lines n] [-root name] profile.json
	spreport diff  [-q n] [-max-increase PCT|SIZE [-allow-removed]] [-noise SIZE,PCT] [-format text|markdown|github] [-lines n] [-root name] base.json change.json
	spreport diff  -qs q,q2 [flags] profile.json
	spreport html  [-o file] [-src dir] [-q n] [-by line|func|type] [-lines n] [-diff base.json [-noise SIZE,PCT] | -qs q,q2] profile.json
	spreport pprof [-o file] [-q list] [-by line|type] [-root name] profile.json
Run 'spreport <command> -h' for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errGate is returned when the diff gate fails: exit status 1.
var errGate = errors.New("gate")

// usageError is bad usage: exit status 2 with the message.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmds := map[string]func([]string, io.Writer) error{
		"show": cmdShow, "curve": cmdCurve, "diff": cmdDiff, "html": cmdHTML, "pprof": cmdPprof,
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "spreport: unknown command %q\n%s", name, usage)
		return 2
	}
	err := cmd(args[1:], stdout)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errGate):
		return 1
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "spreport %s: %s\n", name, ue.msg)
		return 2
	default:
		// The report package's errors may name the command already.
		fmt.Fprintf(stderr, "spreport %s: %s\n", name, strings.TrimPrefix(err.Error(), name+": "))
		return 2
	}
}

// flags makes a command's flag set; parse takes the positional
// arguments, which may come before or after the flags.
func flags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet("spreport "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line; -h prints to stdout
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: spreport %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

func parse(fs *flag.FlagSet, stdout io.Writer, args []string, min, max int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdout)
				fs.Usage()
				return nil, err
			}
			return nil, usageError{fmt.Sprintf("%v (see %s -h)", err, fs.Name())}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if len(pos) < min || len(pos) > max {
		want := fmt.Sprintf("%d profile file(s)", min)
		if min != max {
			want = fmt.Sprintf("%d to %d profile files", min, max)
		}
		return nil, usageError{fmt.Sprintf("want %s, got %d (%s)", want, len(pos), strings.Join(pos, " "))}
	}
	return pos, nil
}

// parseOne parses the flags and reads the one profile named.
func parseOne(fs *flag.FlagSet, stdout io.Writer, args []string) (*profile.Profile, error) {
	pos, err := parse(fs, stdout, args, 1, 1)
	if err != nil {
		return nil, err
	}
	return read(pos[0])
}

// read reads a profile; errors name the file.
func read(path string) (*profile.Profile, error) {
	return profile.ReadFile(path)
}

// intList parses "1,2,8".
func intList(flagName, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usageError{fmt.Sprintf("-%s %q: want processor counts ≥ 1, comma-separated", flagName, s)}
		}
		out = append(out, n)
	}
	return out, nil
}

// onlyRoot returns a copy of p with the root of that name only.
func onlyRoot(p *profile.Profile, name string) (*profile.Profile, error) {
	if name == "" {
		return p, nil
	}
	roots, err := report.SelectRoots(p, name)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Roots = []profile.Root{*roots[0]}
	return &q, nil
}

func cmdShow(args []string, stdout io.Writer) error {
	fs := flags("show", "show [-q n] [-p list] [-by line|type] [-lines n] [-root name] profile.json")
	q := fs.Int("q", 0, "processor count of the per-line table (default the largest)")
	plist := fs.String("p", "", "processor counts of the MHWM table, comma-separated (default 1, 2, 4, …, pmax)")
	lines := fs.Int("lines", 10, "lines (or types) listed per root")
	by := fs.String("by", "line", "the worst case by line or by type")
	root := fs.String("root", "", "report only the root of this name")
	p, err := parseOne(fs, stdout, args)
	if err != nil {
		return err
	}
	if *by != "line" && *by != "type" {
		return usageError{fmt.Sprintf("-by %q: want line or type", *by)}
	}
	o := report.Options{Q: *q, Lines: *lines, Root: *root, By: *by}
	if *plist != "" {
		if o.Ps, err = intList("p", *plist); err != nil {
			return err
		}
	}
	return report.Text(stdout, p, o)
}

func cmdCurve(args []string, stdout io.Writer) error {
	fs := flags("curve", "curve [-lines n] [-root name] profile.json")
	lines := fs.Int("lines", 10, "lines listed per root for the growth")
	root := fs.String("root", "", "report only the root of this name")
	p, err := parseOne(fs, stdout, args)
	if err != nil {
		return err
	}
	return report.Curve(stdout, p, report.CurveOptions{Root: *root, Lines: *lines})
}

// diffFlags are the flags diff and html share.
type diffFlags struct {
	q     *int
	qs    *string
	root  *string
	noise *string
}

func (d *diffFlags) register(fs *flag.FlagSet) {
	d.q = fs.Int("q", 0, "processor count compared (default the largest both profiles have)")
	d.qs = fs.String("qs", "", "compare two processor counts q,q2 of one profile instead of two profiles")
	d.root = fs.String("root", "", "compare only the root of this name")
	d.noise = fs.String("noise", report.DefaultNoise().Spec(), noiseHelp)
}

const noiseHelp = "noise floor of a diff of two profiles: a size, a percentage or both (32KiB,1%), or off. " +
	"A change from b to c bytes within max(size, percentage of max(b, c)) is noise: " +
	"such a line is not listed nor annotated, such a root does not fail the gate"

// diffNotes follows the flags in spreport diff -h.
const diffNotes = `
Lines are matched by function and source text; a line left over on each
side is matched to its edited self (same file and function, similar
text, nearest position) and shown with its former text. Lines are
listed increases first, then decreases, each largest first.

Exit status: 0 when no root grew past -max-increase beyond the noise
floor (or without -max-increase); 1 when one did, or when a root of the
base is gone from the change and -allow-removed is not given (the gate
failed); 2 for bad usage or a file that is not a valid spgo profile.
Profiles of two programs, or of two pmax (compared at the larger p both
have), are compared with a warning.
`

// diff compares the profile at basePath with change (read from
// changePath), or two q of change when basePath is "".
func (d *diffFlags) diff(basePath string, change *profile.Profile, changePath string) (*report.Diff, error) {
	change, err := onlyRoot(change, *d.root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", changePath, err)
	}
	if basePath == "" {
		qs, err := intList("qs", *d.qs)
		if err != nil {
			return nil, err
		}
		if len(qs) != 2 {
			return nil, usageError{fmt.Sprintf("-qs %q: want two processor counts q,q2", *d.qs)}
		}
		return report.DiffPs(change, qs[0], qs[1])
	}
	noise, err := report.ParseNoise(*d.noise)
	if err != nil {
		return nil, usageError{"-noise: " + err.Error()}
	}
	base, err := read(basePath)
	if err != nil {
		return nil, err
	}
	if *d.root != "" {
		if base, err = onlyRoot(base, *d.root); err != nil {
			return nil, fmt.Errorf("%s: %w", basePath, err)
		}
	}
	diff, err := report.DiffProfiles(base, change, basePath, changePath, *d.q)
	if err != nil {
		return nil, err
	}
	diff.SetNoise(noise)
	return diff, nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func cmdDiff(args []string, stdout io.Writer) error {
	fs := flags("diff", "diff [-q n | -qs q,q2] [-max-increase PCT|SIZE] [-noise SIZE,PCT] [-format text|markdown|github] [-lines n] [-root name] [base.json] change.json")
	usage := fs.Usage
	fs.Usage = func() { usage(); fmt.Fprint(fs.Output(), diffNotes) }
	var df diffFlags
	df.register(fs)
	maxInc := fs.String("max-increase", "", "CI gate: exit 1 when a root's MHWM grew by more than this (5%, 64MiB)")
	format := fs.String("format", "text", "output format: text, markdown (a PR comment) or github (Actions annotations)")
	lines := fs.Int("lines", 10, "changed lines listed per root (0: all)")
	allowRemoved := fs.Bool("allow-removed", false, "with -max-increase: a root of the base that the change lacks passes the gate (by default it fails it)")
	pos, err := parse(fs, stdout, args, 1, 2)
	if err != nil {
		return err
	}
	if (len(pos) == 1) != (*df.qs != "") {
		return usageError{"compare two profiles (base.json change.json), or two processor counts of one with -qs q,q2"}
	}
	if *df.qs != "" && *df.q != 0 {
		return usageError{"-q and -qs exclude each other"}
	}
	if *df.qs != "" && isSet(fs, "noise") {
		return usageError{"-noise applies to two profiles: the two processor counts of one run (-qs) have no jitter between them"}
	}
	o := report.DiffOptions{Lines: *lines}
	if *maxInc != "" {
		l, err := report.ParseLimit(*maxInc)
		if err != nil {
			return usageError{"-max-increase: " + err.Error()}
		}
		o.Limit = &l
	}
	var write func(*report.Diff, io.Writer, report.DiffOptions) error
	switch *format {
	case "text":
		write = (*report.Diff).WriteText
	case "markdown", "md":
		write = (*report.Diff).WriteMarkdown
	case "github":
		write = (*report.Diff).WriteGitHub
	default:
		return usageError{fmt.Sprintf("-format %q: want text, markdown or github", *format)}
	}
	changePath, basePath := pos[len(pos)-1], ""
	if len(pos) == 2 {
		basePath = pos[0]
	}
	change, err := read(changePath)
	if err != nil {
		return err
	}
	d, err := df.diff(basePath, change, changePath)
	if err != nil {
		return err
	}
	if *allowRemoved {
		d.AllowRemoved()
	}
	if *format == "github" {
		o.PathPrefix = repoPrefix(change.SourceRoot)
	}
	if err := write(d, stdout, o); err != nil {
		return err
	}
	if o.Limit != nil && len(d.Failing(*o.Limit)) > 0 {
		return errGate
	}
	return nil
}

// repoPrefix returns the path from the repository's root (GitHub
// Actions' GITHUB_WORKSPACE, else the current directory) to the
// profile's source root, for annotations; "" when unknown.
func repoPrefix(sourceRoot string) string {
	if sourceRoot == "" {
		return ""
	}
	top := os.Getenv("GITHUB_WORKSPACE")
	if top == "" {
		var err error
		if top, err = os.Getwd(); err != nil {
			return ""
		}
	}
	rel, err := filepath.Rel(top, sourceRoot)
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

func cmdHTML(args []string, stdout io.Writer) error {
	fs := flags("html", "html [-o file] [-src dir] [-q n] [-by line|func|type] [-lines n] [-diff base.json [-noise SIZE,PCT] | -qs q,q2] profile.json")
	out := fs.String("o", "spgo.html", "output file (- for standard output)")
	q := fs.Int("q", 0, "processor count of the per-line view (default the largest)")
	by := fs.String("by", "line", "heap bands by line, func or type (type adds the worst case by type)")
	lines := fs.Int("lines", 20, "lines listed per root")
	base := fs.String("diff", "", "add a diff view against this baseline profile")
	qs := fs.String("qs", "", "add a diff view of two processor counts q,q2 of the profile")
	noise := fs.String("noise", report.DefaultNoise().Spec(), "with -diff: "+noiseHelp)
	srcDir := fs.String("src", "", "read source files from this directory (default: the profile's source root if it is the current directory or below it)")
	pos, err := parse(fs, stdout, args, 1, 1)
	if err != nil {
		return err
	}
	if *out != "-" && (sameFile(*out, pos[0]) || *base != "" && sameFile(*out, *base)) {
		return usageError{fmt.Sprintf("-o %s would overwrite a profile it reads", *out)}
	}
	if *by != "line" && *by != "func" && *by != "type" {
		return usageError{fmt.Sprintf("-by %q: want line, func or type", *by)}
	}
	if *base != "" && *qs != "" {
		return usageError{"-diff and -qs exclude each other"}
	}
	p, err := read(pos[0])
	if err != nil {
		return err
	}
	o := report.HTMLOptions{Title: strings.Join(p.Args, " "), Q: *q, Lines: *lines, By: *by, SourceDir: *srcDir}
	if *base != "" || *qs != "" {
		empty := ""
		df := diffFlags{q: q, qs: qs, root: &empty, noise: noise}
		if o.Diff, err = df.diff(*base, p, pos[0]); err != nil {
			return err
		}
	}
	return writeOut(*out, stdout, func(w io.Writer) error { return report.WriteHTML(w, p, o) })
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func cmdPprof(args []string, stdout io.Writer) error {
	fs := flags("pprof", "pprof [-o file] [-q list] [-by line|type] [-root name] profile.json")
	out := fs.String("o", "spgo.pb.gz", "output file (- for standard output)")
	qlist := fs.String("q", "", "processor counts given a sample type mhwm_<q>, comma-separated (default 1, 2, 4, …, pmax)")
	root := fs.String("root", "", "write only the root of this name")
	by := fs.String("by", "line", "one sample per line, or per line and type with the label type")
	p, err := parseOne(fs, stdout, args)
	if err != nil {
		return err
	}
	if *by != "line" && *by != "type" {
		return usageError{fmt.Sprintf("-by %q: want line or type", *by)}
	}
	o := report.PprofOptions{Root: *root, By: *by}
	if *qlist != "" {
		if o.Qs, err = intList("q", *qlist); err != nil {
			return err
		}
	}
	return writeOut(*out, stdout, func(w io.Writer) error { return report.WritePprof(w, p, o) })
}

// writeOut writes a report to path ("-": stdout).
func writeOut(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	return report.WriteFile(path, write)
}
