package driver

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spgo/spgo/rewrite"
)

// BuildError is an instrumented build that failed.
type BuildError struct {
	// Args are the go command's arguments.
	Args []string
	// Messages are the go command's, positions in the instrumented
	// copies of the user's files mapped back to those files.
	Messages string
	// Original holds the messages of the same build without spbuild
	// when it fails too; "" when it builds.
	Original string
	// Overlay is the directory of the instrumented copies.
	Overlay string
	// Err is the go command's exit error.
	Err error
}

// Error says which build failed and what to do: the user's own errors
// when the package does not build without spbuild either, else the
// instrumented build's, which are spbuild's to fix.
func (e *BuildError) Error() string {
	if e.Original != "" {
		return "the package does not build, without spbuild either (fix the errors below):\n" + strings.TrimRight(e.Original, "\n")
	}
	return "the instrumented build failed, though the package builds without spbuild:\n" + strings.TrimRight(e.Messages, "\n") +
		"\nthis is a bug in spbuild's instrumentation (positions above are in your files; the instrumented copies are in " + e.Overlay + "): please report it with these messages"
}

func (e *BuildError) Unwrap() error { return e.Err }

// build runs `go build` (args) with the instrumented packages. On
// success it writes the go command's messages to stderr; on failure it
// returns a *BuildError, after building pkg without spbuild to tell the
// user's errors from spbuild's.
func (p *Prepared) build(ctx context.Context, cfg Config, args []string, pkg string, stderr io.Writer) error {
	cmd := goCommand(ctx, cfg.Dir, p.Env, args...)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	err := cmd.Run()
	msgs := p.mapPositions(buf.String(), cfg.Dir)
	if err == nil {
		io.WriteString(stderr, msgs)
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("go build: %w", ctx.Err()) // interrupted: nothing to tell
	}
	if _, ok := err.(*exec.ExitError); !ok {
		return &GoError{Args: args, Stderr: msgs, Err: err}
	}
	return &BuildError{Args: args, Messages: msgs, Original: p.originalFailure(ctx, cfg, pkg), Overlay: filepath.Join(p.Entry, "overlay"), Err: err}
}

// originalFailure builds pkg without spbuild, reading a copy of go.mod as
// the listing does, and returns the go command's messages if it fails
// ("" if it builds, or if it cannot be tried).
func (p *Prepared) originalFailure(ctx context.Context, cfg Config, pkg string) string {
	if p.mod == nil {
		return ""
	}
	lcfg, cleanup, err := withListModFile(cfg, p.mod)
	if err != nil {
		return ""
	}
	defer cleanup()
	args := append([]string{"build"}, lcfg.BuildFlags...)
	args = append(args, "-o", os.DevNull, "--", pkg)
	cmd := goCommand(ctx, cfg.Dir, environ(cfg.Env), args...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err == nil {
		return ""
	}
	return cmp.Or(buf.String(), "go build failed without spbuild too")
}

// goPosition matches a position in the go command's messages: a Go file,
// a line and perhaps a column.
var goPosition = regexp.MustCompile(`[^\s:]+\.go:(\d+)(:\d+)?`)

// mapPositions rewrites the positions in text (the go command's
// messages, run in dir) that name an instrumented copy so that they name
// the user's file and line instead, as the go command would print them.
func (p *Prepared) mapPositions(text, dir string) string {
	return p.positionMapper(dir)(text)
}

// positionMapper returns mapPositions for dir, reading the overlay once.
// The compiler maps most of a copy through its //line directives
// already; the lines before the first directive (the package clause and
// the imports, where the rewriter adds its own) it reports in the copy.
func (p *Prepared) positionMapper(dir string) func(string) string {
	ov, err := p.overlay()
	absDir, aerr := filepath.Abs(dir)
	if err != nil || aerr != nil || len(ov) == 0 {
		return func(s string) string { return s }
	}
	user := map[string]string{} // instrumented copy → user's file
	for k, v := range ov {
		user[v] = k
	}
	lm := lineMaps{}
	return func(text string) string {
		return goPosition.ReplaceAllStringFunc(text, func(pos string) string {
			m := goPosition.FindStringSubmatchIndex(pos)
			file := pos[:m[2]-1]
			line, _ := strconv.Atoi(pos[m[2]:m[3]])
			abs := file
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(absDir, abs)
			}
			orig, ok := user[filepath.Clean(abs)]
			if !ok {
				return pos
			}
			ufile, uline := lm.userLine(filepath.Clean(abs), orig, line)
			return shortPath(absDir, ufile) + ":" + strconv.Itoa(uline) + pos[m[3]:]
		})
	}
}

// positionWriter returns a writer that passes the go command's messages
// (run in dir) to w line by line, positions mapped as mapPositions maps
// them; Flush writes a last line without a newline.
func (p *Prepared) positionWriter(w io.Writer, dir string) *lineMapper {
	return &lineMapper{w: w, conv: p.positionMapper(dir)}
}

// lineMapper converts what is written to it line by line.
type lineMapper struct {
	w    io.Writer
	conv func(string) string
	buf  []byte
}

func (l *lineMapper) Write(b []byte) (int, error) {
	l.buf = append(l.buf, b...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		out := l.conv(string(l.buf[:i+1]))
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
		if _, err := io.WriteString(l.w, out); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// Flush writes what is left, a line without its newline.
func (l *lineMapper) Flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := io.WriteString(l.w, l.conv(string(l.buf)))
	l.buf = l.buf[:0]
	return err
}

// shortPath spells path as the go command does in its messages: relative
// to dir when that is shorter.
func shortPath(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil || len(rel) >= len(path) {
		return path
	}
	if !strings.HasPrefix(rel, "..") {
		rel = "." + string(filepath.Separator) + rel
	}
	return rel
}

// lineMaps maps lines of instrumented copies to the user's lines, reading
// each copy once.
type lineMaps map[string]*lineMap

// lineMap is one instrumented copy's map.
type lineMap struct {
	directives map[int]directive // by 1-based line of the copy
	header     []int             // copy line (1-based, before the first directive) → user line
}

// directive is a //line directive: the line after it is file:line.
type directive struct {
	file string
	line int
}

// userLine returns the user's file and line of line in the instrumented
// copy of orig.
func (lm lineMaps) userLine(copy, orig string, line int) (string, int) {
	m, ok := lm[copy]
	if !ok {
		m = readLineMap(copy, orig)
		lm[copy] = m
	}
	for l := line - 1; l >= 1; l-- {
		if d, ok := m.directives[l]; ok {
			return d.file, d.line + (line - l - 1)
		}
	}
	if line >= 1 && line <= len(m.header) {
		return orig, m.header[line-1]
	}
	return orig, line
}

// readLineMap reads the copy's //line directives and aligns the lines
// before the first with the user's file: equal lines map to each other
// (a longest common subsequence), the lines the rewriter added to the
// user line that follows them.
func readLineMap(copy, orig string) *lineMap {
	m := &lineMap{directives: map[int]directive{}}
	data, err := os.ReadFile(copy)
	if err != nil {
		return m
	}
	lines := strings.Split(string(data), "\n")
	first := len(lines)
	for i, l := range lines {
		if f, n, ok := rewrite.ParseLineDirective(l); ok {
			m.directives[i+1] = directive{f, n}
			first = min(first, i)
		}
	}
	src, err := os.ReadFile(orig)
	if err != nil {
		return m
	}
	m.header = alignLines(lines[:first], strings.Split(string(src), "\n"))
	return m
}

// maxAlign bounds the lines alignLines aligns (a quadratic table).
const maxAlign = 2000

// alignLines maps each line of a (1-based result per a's line) to a line
// of b: the lines of a longest common subsequence of the two (compared
// without surrounding space) to their partners, the others to the line
// of b after the last partner before them.
func alignLines(a, b []string) []int {
	a, b = a[:min(len(a), maxAlign)], b[:min(len(b), maxAlign)]
	n, k := len(a), len(b)
	eq := func(i, j int) bool { return strings.TrimSpace(a[i]) == strings.TrimSpace(b[j]) }
	// lcs[i][j]: the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, k+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := k - 1; j >= 0; j-- {
			if eq(i, j) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	out := make([]int, n)
	i, j := 0, 0
	for i < n {
		switch {
		case j < k && eq(i, j) && lcs[i][j] == lcs[i+1][j+1]+1:
			out[i] = j + 1
			i, j = i+1, j+1
		case j < k && lcs[i][j+1] >= lcs[i+1][j]:
			j++
		default:
			out[i] = min(j+1, max(k, 1))
			i++
		}
	}
	return out
}
