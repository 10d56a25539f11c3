package report

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spgo/spgo/rtlib/profile"
)

// HTMLOptions controls WriteHTML.
type HTMLOptions struct {
	Title string // the command line or flags of the run, shown in the title
	Q     int    // processor count of the per-line view; 0 means pmax
	Lines int    // lines listed per root (0 means 20)
	// By groups the heap bands: "line" (default), "func" or "type"
	// (with "type" the page also has the worst case by type).
	By string
	// Diff, when set, adds the diff view (from DiffProfiles or DiffPs).
	Diff *Diff
	// Source returns a source file's contents by the profile's file name;
	// nil reads the Go files below SourceDir, named relative to it or by
	// absolute paths, after symbolic links are resolved (other files, and
	// files not found, are shown from the profile's Line.Text only).
	Source func(file string) ([]byte, error)
	// SourceDir is the directory source files are read from. Empty: the
	// profile's source_root when that is the current directory or below
	// it, else none. A profile may come from someone else (a pull
	// request): it does not choose which directory of the reader's
	// machine the page shows files from.
	SourceDir string
}

//go:embed html.tmpl
var htmlTemplateText string

//go:embed htmlviews.tmpl
var htmlViewsText string

//go:embed html.css
var htmlCSS string

//go:embed html.js
var htmlJS string

// htmlTemplate is parsed on first use, not when a program linking the
// package starts.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.Must(template.Must(template.New("page").Parse(htmlTemplateText)).Parse(htmlViewsText)).Parse(flameTemplateText))
})

// WriteHTML writes one self-contained HTML page for p.
//
// The page needs nothing from the network: the charts are inline SVG,
// the style and the script are inline, and the script only switches the
// per-line view between processor counts (the page shows the default
// without it). Per root it has the MHWM_p table and chart; when the root
// was simulated, each policy's simulated peak beside MHWM_p and, per
// simulated p, memory in use over simulated time by policy with the
// lines at the work-stealing peak; the lines of the worst case at one p
// split by strand state, the source annotated with each line's share,
// and the serial run's heap over time as a band chart after Runciman and
// Wakeling; with o.Diff, the comparison.
func WriteHTML(w io.Writer, p *profile.Profile, o HTMLOptions) error {
	if o.Q < 0 || o.Q > p.PMax {
		return fmt.Errorf("html report: p = %d is outside the profile (pmax %d)", o.Q, p.PMax)
	}
	page := newHTMLPage(p, o)
	var buf bytes.Buffer
	if err := htmlTemplate().Execute(&buf, page); err != nil {
		return fmt.Errorf("html report: %v", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// htmlPage is the template's data.
type htmlPage struct {
	Title       string // the page's <title>
	Program     string
	Flags       string
	Date        string
	Seconds     string
	PMax        int
	Census      string
	ByteSeconds string
	SourceRoot  string
	Partial     bool
	Threshold   string // the threshold mode's M
	Warnings    []profile.Warning
	By          string
	Lines       int

	SummaryPs []int
	Summary   []htmlSummaryRow
	Diff      *htmlDiff
	Roots     []*htmlRoot
	// Data is the per-line shares for the script, embedded as JSON.
	Data htmlData
	CSS  template.CSS
	JS   template.JS
}

type htmlSummaryRow struct {
	ID, Name  string
	Exact     bool
	Unbounded bool // a figure may be too low (profile.Root.Unbounded)
	SelfCheck bool // the run held less than the model says (profile.Root.SelfCheckFailed)
	Cells     []string
	Serial    string
	Note      string
}

// htmlRoot is one root's section.
type htmlRoot struct {
	ID        string
	Name      string
	Open      bool
	Exact     bool
	Unbounded bool // a figure may be too low (profile.Root.Unbounded)
	SelfCheck bool // the run held less than the model says (profile.Root.SelfCheckFailed)
	Reasons   []string
	// Threshold is the threshold mode's answer in words.
	Threshold string
	Stats     string
	Census    string
	Antichain *htmlAntichain
	Table     []htmlPCell
	Serial    string
	// Interval: the table has the truth's bounds (an inexact root), the
	// serial peak's in SerialLow and SerialHigh.
	Interval              bool
	SerialLow, SerialHigh string
	// Stacks: the table has a total with goroutine stacks; StacksSerial
	// is its serial peak and StacksNote says what it is.
	Stacks       bool
	StacksSerial string
	StacksNote   string
	// PoolNote says how the root used sync.Pool (poolNote).
	PoolNote string
	Chart    *htmlMHWMChart
	// Sim is the simulated schedules, nil when the root was not
	// simulated.
	Sim *htmlSim

	// The per-line view.
	HasShares bool
	NoShares  string
	Q         int
	Qs        []htmlQ
	QTotal    string
	Bars      []htmlBar
	MoreBars  int

	By string // "line", "function" or "type"
	// Types is the worst case by type (By "type"), nil otherwise.
	Types *htmlTypes
	// WorkSpan is the work and span per spawn site, nil when the root
	// was not recorded.
	WorkSpan *htmlWorkSpan
	Heap     *htmlBandChart
	HeapNote string
	HeapHead string

	Files []*htmlFile
	// Flame is the flame graph of the worst case by call path (flame.go).
	Flame *htmlFlame
}

type htmlAntichain struct {
	P                             int
	Bytes                         string
	Running, Completed, Suspended string
	Split                         htmlSplitView
}

type htmlPCell struct {
	P      int
	Bytes  string
	Factor string
	// Low and High bound the truth when the root is inexact and has
	// intervals; empty otherwise.
	Low, High string
	// Total is the heap and goroutine stacks together (profile.Stacks).
	Total string
}

type htmlQ struct {
	Q        int
	Selected bool
}

// htmlBar is one line of the per-line view.
type htmlBar struct {
	Pos, Func, Text string
	Bytes, Pct      string
	Split           htmlSplitView
	Title           string
}

// htmlFile is one annotated source file.
type htmlFile struct {
	Name  string
	Note  string
	Total string
	Rows  []htmlSrcRow
}

// htmlSrcRow is a source line or a run of lines left out.
type htmlSrcRow struct {
	Gap   bool
	Skip  string // "23 lines"
	N     int
	Text  string
	LIs   string // the lines' indices in Root.Lines, for the script
	Alloc string
	Share string
	Heat  int
	Title string
}

// htmlData is the script's data: per root, per listed q, the lines'
// shares. Arrays are flat to keep the page small.
type htmlData struct {
	N     int            `json:"n"`
	Roots []htmlRootData `json:"roots"`
}

type htmlRootData struct {
	ID string `json:"id"`
	Qs []int  `json:"qs"`
	// Q is the default's index in Qs.
	Q   int     `json:"q"`
	Tot []int64 `json:"tot"`
	// Lines are [file, line, func, text] of the lines with a share,
	// null for the others (by index in Root.Lines).
	Lines []any `json:"lines"`
	// Sh[i] is, for Qs[i], index, bytes, index, bytes, … of the lines
	// with a share, largest first.
	Sh [][]int64 `json:"sh"`
	// Sp[i] is, for Qs[i], index, running, completed, suspended, … of
	// the first n lines of Sh[i].
	Sp [][]int64 `json:"sp"`
}

func newHTMLPage(p *profile.Profile, o HTMLOptions) *htmlPage {
	if o.Lines <= 0 {
		o.Lines = 20
	}
	byFunc := o.By == "func" || o.By == "function"
	pg := &htmlPage{
		Program:    p.Program,
		Flags:      o.Title,
		PMax:       p.PMax,
		SourceRoot: p.SourceRoot,
		Partial:    p.Partial,
		Warnings:   p.Warnings,
		By:         "line",
		Lines:      o.Lines,
		CSS:        template.CSS(htmlCSS + flameCSS),
		JS:         template.JS(htmlJS + flameJS),
	}
	if byFunc {
		pg.By = "function"
	}
	if o.By == "type" {
		pg.By = "type"
	}
	if pg.Program == "" {
		pg.Program = "(unnamed program)"
	}
	pg.Title = "spgo: " + pg.Program
	if o.Title != "" {
		pg.Title += " " + o.Title
	}
	if p.Census.Policy != "" {
		pg.Census = fmt.Sprintf("%s, error bound %g", p.Census.Policy, p.Census.ErrorBound)
	}
	if p.Wall != nil {
		pg.Date = htmlDate(p.Wall.Start)
		if p.Wall.Seconds > 0 {
			pg.Seconds = strconv.FormatFloat(p.Wall.Seconds, 'f', 3, 64) + " s"
		}
	}
	if p.Threshold > 0 {
		pg.Threshold = Bytes(p.Threshold)
	}
	bs, haveBS := 0.0, false
	for i := range p.Roots {
		if h := p.Roots[i].Heap; h != nil {
			bs += h.WallByteSeconds
			haveBS = true
		}
	}
	if haveBS {
		pg.ByteSeconds = htmlByteSeconds(bs)
	}
	pg.SummaryPs = DefaultPs(max(p.PMax, 1))
	src := newHTMLSources(sourceDir(p, o.SourceDir), o.Source)
	pg.Data.N = o.Lines
	for i := range p.Roots {
		r := &p.Roots[i]
		id := "root-" + strconv.Itoa(i)
		row := htmlSummaryRow{ID: id, Name: r.Name, Exact: r.Exact, Unbounded: r.Unbounded, SelfCheck: r.SelfCheckFailed, Serial: Bytes(r.SerialPeak)}
		for _, q := range pg.SummaryPs {
			if v, ok := r.MHWMAt(q); ok {
				row.Cells = append(row.Cells, Bytes(v))
			} else {
				row.Cells = append(row.Cells, "–")
			}
		}
		if t := r.Threshold; t != nil && len(r.MHWM) == 0 {
			row.Note = htmlThreshold(t)
		}
		pg.Summary = append(pg.Summary, row)
		hr, data := newHTMLRoot(p, r, id, o, byFunc, src)
		hr.Open = len(p.Roots) <= 4 || i == 0
		pg.Roots = append(pg.Roots, hr)
		if data != nil {
			pg.Data.Roots = append(pg.Data.Roots, *data)
		}
	}
	if o.Diff != nil {
		pg.Diff = newHTMLDiff(o.Diff, o.Lines)
	}
	return pg
}

// htmlDate formats an RFC 3339 time for the title; other text is kept.
func htmlDate(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	if t.Location() == time.UTC {
		return t.Format("2006-01-02 15:04:05 UTC")
	}
	return t.Format("2006-01-02 15:04:05 -07:00")
}

// htmlByteSeconds formats a byte-time integral.
func htmlByteSeconds(bs float64) string {
	return Bytes(int64(bs+0.5)) + "·s"
}

func htmlThreshold(t *profile.ThresholdAnswer) string {
	if t.AtLeastHalf {
		return fmt.Sprintf("MHWM_%d ≥ %s (half of M = %s)", t.P, Bytes(t.M/2), Bytes(t.M))
	}
	return fmt.Sprintf("MHWM_%d < %s (M)", t.P, Bytes(t.M))
}

func newHTMLRoot(p *profile.Profile, r *profile.Root, id string, o HTMLOptions, byFunc bool, src *htmlSources) (*htmlRoot, *htmlRootData) {
	hr := &htmlRoot{ID: id, Name: r.Name, Exact: r.Exact, Unbounded: r.Unbounded, SelfCheck: r.SelfCheckFailed, Reasons: r.Reasons, Serial: Bytes(r.SerialPeak), By: "line"}
	if !r.Exact && r.HasInterval() {
		hr.Interval = true
		if r.SerialHigh != 0 {
			hr.SerialLow, hr.SerialHigh = Bytes(r.SerialLow), Bytes(r.SerialHigh)
		}
	}
	if byFunc {
		hr.By = "function"
	}
	if o.By == "type" {
		hr.By = "type"
	}
	par := ""
	if r.Span > 0 {
		par = fmt.Sprintf(" (parallelism %.1f)", float64(r.Work)/float64(r.Span))
	}
	hr.Stats = fmt.Sprintf("work %d, span %d%s; %d strands, %d spawns", r.Work, r.Span, par, r.Strands, r.Spawns)
	hr.Census = fmt.Sprintf("%d censuses, at most %s allocated between two", r.Censuses, Bytes(r.CensusError))
	if r.CensusLag > 0 {
		hr.Census += fmt.Sprintf("; %s of uninstrumented small allocations charged at a census", Bytes(r.CensusLag))
	}
	if t := r.Threshold; t != nil {
		hr.Threshold = htmlThreshold(t)
	}
	if a := r.Antichain; a != nil && a.Bytes > 0 {
		hr.Antichain = &htmlAntichain{P: a.P, Bytes: Bytes(a.Bytes), Running: Bytes(a.Running), Completed: Bytes(a.Completed), Suspended: Bytes(a.Suspended),
			Split: htmlSplitView{Running: htmlPct(a.Running, a.Bytes), Completed: htmlPct(a.Completed, a.Bytes), Suspended: htmlPct(a.Suspended, a.Bytes)}}
	}
	pmax := len(r.MHWM)
	if pmax > 0 {
		for _, q := range DefaultPs(pmax) {
			v, _ := r.MHWMAt(q)
			c := htmlPCell{P: q, Bytes: Bytes(v)}
			if lo, hi, ok := r.IntervalAt(q); ok && !r.Exact {
				c.Low, c.High = Bytes(lo), Bytes(hi)
			}
			if r.SerialPeak > 0 {
				c.Factor = strconv.FormatFloat(float64(v)/float64(r.SerialPeak), 'f', 2, 64) + "×"
			}
			if t, _, _, ok := r.TotalAt(q); ok {
				c.Total = Bytes(t)
			}
			hr.Table = append(hr.Table, c)
		}
		if st := r.Stacks; st != nil && st.Goroutines > 0 {
			hr.Stacks, hr.StacksSerial, hr.StacksNote = true, Bytes(st.SerialPeak), stacksNote(r, pmax)
		}
		hr.PoolNote = poolNote(r)
		hr.Chart = newHTMLMHWMChart(r)
	}

	// The per-line view at q.
	q := o.Q
	if q <= 0 || q > pmax {
		q = pmax
	}
	var data *htmlRootData
	share := make([]int64, len(r.Lines)) // each line's share at q
	a, ok := r.AttributedAt(q)
	switch {
	case pmax == 0:
		hr.NoShares = "No per-line shares: this is a threshold-mode run, which answers one question about MHWM and attributes nothing to lines. The source below shows the bytes each line allocated."
	case !ok:
		hr.NoShares = "No per-line shares in this profile."
	default:
		hr.HasShares = true
		hr.Q = a
		for _, x := range r.Attributed {
			if x >= 1 && x <= pmax {
				hr.Qs = append(hr.Qs, htmlQ{Q: x, Selected: x == a})
			}
		}
		total, _ := r.MHWMAt(a)
		hr.QTotal = Bytes(total)
		type ls struct {
			i     int
			b     int64
			split profile.Split
		}
		var top []ls
		for i := range r.Lines {
			b, s, _ := r.LineMHWM(&r.Lines[i], a)
			share[i] = b
			if b > 0 {
				top = append(top, ls{i, b, s})
			}
		}
		slices.SortStableFunc(top, func(x, y ls) int { return cmp.Compare(y.b, x.b) })
		if len(top) > o.Lines {
			hr.MoreBars = len(top) - o.Lines
			top = top[:o.Lines]
		}
		for _, t := range top {
			l := &r.Lines[t.i]
			widest := top[0].b
			bar := htmlBar{
				Pos: htmlPos(l.File, l.Line), Func: l.Func, Text: l.Text, Bytes: Bytes(t.b), Pct: htmlPercent(t.b, total),
				Split: htmlSplitView{Running: htmlPct(t.split.Running, widest), Completed: htmlPct(t.split.Completed, widest), Suspended: htmlPct(t.split.Suspended, widest)},
			}
			if t.split.Total() != t.b {
				// No split recorded: draw it all as one colour.
				bar.Split = htmlSplitView{Running: htmlPct(t.b, widest), Completed: "0", Suspended: "0"}
			}
			bar.Title = fmt.Sprintf("running %s, completed %s, suspended %s", Bytes(t.split.Running), Bytes(t.split.Completed), Bytes(t.split.Suspended))
			hr.Bars = append(hr.Bars, bar)
		}
		data = newHTMLRootData(r, id, a, o.Lines)
		if o.By == "type" {
			hr.Types = newHTMLTypes(r, a, o.Lines)
		}
	}

	simQ := q
	if hr.HasShares {
		simQ = hr.Q
	}
	hr.Sim = newHTMLSim(r, simQ, o.Lines)
	hr.WorkSpan = newHTMLWorkSpan(r, o.Lines)

	// The heap band chart.
	switch {
	case r.Heap == nil && (pmax == 0 || r.Threshold != nil):
		hr.HeapNote = "No heap profile: threshold-mode runs do not record the serial run's heap over time."
	case r.Heap == nil || len(r.Heap.Samples) == 0:
		hr.HeapNote = "No heap profile was recorded for this root."
	default:
		if o.By == "type" {
			hr.Heap = newHTMLBandChartOf(r, htmlTypeSeries(r), "types")
		} else {
			hr.Heap = newHTMLBandChart(r, byFunc)
		}
		if hr.Heap == nil {
			hr.HeapNote = "The serial run's heap held no bytes the profile attributes to a line."
			break
		}
		parts := []string{p.Program}
		if p.Program == "" {
			parts[0] = "(unnamed program)"
		}
		if o.Title != "" {
			parts = append(parts, o.Title)
		}
		parts = append(parts, htmlByteSeconds(r.Heap.WallByteSeconds)+" (wall clock)")
		if p.Wall != nil && p.Wall.Start != "" {
			parts = append(parts, htmlDate(p.Wall.Start))
		}
		hr.HeapHead = strings.Join(parts, " · ")
	}

	hr.Files = newHTMLFiles(r, share, hr.HasShares, src)
	hr.Flame = newHTMLFlame(r, hr.Qs, hr.Q)
	return hr, data
}

func htmlPos(file string, line int) string {
	if line <= 0 {
		return file
	}
	return file + ":" + strconv.Itoa(line)
}

func htmlPercent(part, whole int64) string {
	if whole == 0 {
		return ""
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%"
}

func newHTMLRootData(r *profile.Root, id string, def, n int) *htmlRootData {
	d := &htmlRootData{ID: id, Lines: make([]any, len(r.Lines))}
	used := make([]bool, len(r.Lines))
	for _, q := range r.Attributed {
		if q < 1 || q > len(r.MHWM) {
			continue
		}
		if q == def {
			d.Q = len(d.Qs)
		}
		d.Qs = append(d.Qs, q)
		tot, _ := r.MHWMAt(q)
		d.Tot = append(d.Tot, tot)
		key := strconv.Itoa(q)
		var idx []int
		for i := range r.Lines {
			if r.Lines[i].MHWMBytes[key] > 0 {
				idx = append(idx, i)
			}
		}
		slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(r.Lines[y].MHWMBytes[key], r.Lines[x].MHWMBytes[key]) })
		sh := make([]int64, 0, 2*len(idx))
		sp := make([]int64, 0, 4*min(n, len(idx)))
		for k, i := range idx {
			b := r.Lines[i].MHWMBytes[key]
			sh = append(sh, int64(i), b)
			used[i] = true
			if k < n {
				s := r.Lines[i].MHWMSplit[key]
				if s.Total() != b {
					s = profile.Split{Running: b}
				}
				sp = append(sp, int64(i), s.Running, s.Completed, s.Suspended)
			}
		}
		d.Sh = append(d.Sh, sh)
		d.Sp = append(d.Sp, sp)
	}
	for i, u := range used {
		if u {
			l := &r.Lines[i]
			d.Lines[i] = []any{l.File, l.Line, l.Func, l.Text}
		}
	}
	return d
}

// htmlSources reads source files once per page.
type htmlSources struct {
	read  func(string) ([]byte, error)
	cache map[string][]string
	err   map[string]error
}

func newHTMLSources(root string, read func(string) ([]byte, error)) *htmlSources {
	if read == nil {
		read = func(file string) ([]byte, error) { return readBelow(root, file) }
	}
	return &htmlSources{read: read, cache: map[string][]string{}, err: map[string]error{}}
}

// sourceDir is the directory the page reads source files from: dir when
// given, else the profile's source root if it is the current directory
// or below it, else none ("").
func sourceDir(p *profile.Profile, dir string) string {
	if dir != "" || p.SourceRoot == "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if _, ok := belowResolved(wd, p.SourceRoot); ok { // the directory itself included
		return p.SourceRoot
	}
	return ""
}

// readBelow reads file, a Go file below root (named relative to it or by
// an absolute path), only if it is still below root once symbolic links
// are resolved: a profile cannot make the page embed other files.
func readBelow(root, file string) ([]byte, error) {
	if filepath.Ext(file) != ".go" {
		return nil, fmt.Errorf("%s: not a Go source file", file)
	}
	if root == "" {
		return nil, fmt.Errorf("%s: no source directory (spreport html -src)", file)
	}
	rel, ok := belowRoot(root, file)
	if !ok {
		return nil, fmt.Errorf("%s: outside the source root", file)
	}
	real, ok := belowResolved(root, filepath.Join(root, rel))
	if !ok {
		return nil, fmt.Errorf("%s: outside the source root once links are resolved", file)
	}
	return os.ReadFile(real)
}

// belowResolved returns path with its symbolic links resolved, and
// whether that is root or below it, with root's resolved.
func belowResolved(root, path string) (string, bool) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	if r, err = filepath.Abs(r); err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", false
	}
	rel, err := filepath.Rel(r, real)
	return real, err == nil && filepath.IsLocal(rel)
}

// belowRoot returns file's name relative to root when it is below root:
// a relative name that stays below it (checked by name, as
// filepath.IsLocal does), or an absolute name whose path from root does.
// Without a root only relative names are, relative to the current
// directory.
func belowRoot(root, file string) (string, bool) {
	if filepath.IsAbs(file) {
		if root == "" {
			return "", false
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			return "", false
		}
		if file, err = filepath.Rel(abs, file); err != nil {
			return "", false
		}
	}
	return file, filepath.IsLocal(file)
}

// lines returns the file's lines, or nil and why not.
func (s *htmlSources) lines(file string) ([]string, error) {
	if ls, ok := s.cache[file]; ok {
		return ls, s.err[file]
	}
	var ls []string
	b, err := s.read(file)
	if err == nil {
		text := strings.ReplaceAll(string(b), "\r\n", "\n")
		text = strings.TrimSuffix(text, "\n")
		ls = strings.Split(text, "\n")
	}
	s.cache[file], s.err[file] = ls, err
	return ls, err
}

// htmlContext is how many lines around an annotated line are shown.
const htmlContext = 2

func newHTMLFiles(r *profile.Root, share []int64, hasShares bool, src *htmlSources) []*htmlFile {
	type lineInfo struct {
		idx          []int
		alloc, share int64
		text         string
	}
	byFile := map[string]map[int]*lineInfo{}
	var names []string
	hot := int64(0)
	for i := range r.Lines {
		l := &r.Lines[i]
		if l.File == "" || l.File == unattributed {
			continue
		}
		m := byFile[l.File]
		if m == nil {
			m = map[int]*lineInfo{}
			byFile[l.File] = m
			names = append(names, l.File)
		}
		li := m[l.Line]
		if li == nil {
			li = &lineInfo{text: l.Text}
			m[l.Line] = li
		}
		li.idx = append(li.idx, i)
		li.alloc += l.AllocBytes
		li.share += share[i]
		if li.text == "" {
			li.text = l.Text
		}
	}
	heatOf := func(li *lineInfo) int64 {
		if hasShares {
			return li.share
		}
		return li.alloc
	}
	for _, m := range byFile {
		for _, li := range m {
			hot = max(hot, heatOf(li))
		}
	}
	slices.Sort(names)
	var files []*htmlFile
	for _, name := range names {
		m := byFile[name]
		nums := make([]int, 0, len(m))
		tot := int64(0)
		for n, li := range m {
			nums = append(nums, n)
			tot += li.share
		}
		slices.Sort(nums)
		f := &htmlFile{Name: name}
		if hasShares {
			f.Total = Bytes(tot)
		}
		row := func(n int, text string) htmlSrcRow {
			sr := htmlSrcRow{N: n, Text: text}
			if li := m[n]; li != nil {
				var ids []string
				for _, i := range li.idx {
					ids = append(ids, strconv.Itoa(i))
				}
				sr.LIs = strings.Join(ids, " ")
				sr.Alloc = Bytes(li.alloc)
				if hasShares {
					sr.Share = Bytes(li.share)
					if li.share == 0 {
						sr.Share = ""
					}
				}
				if h := heatOf(li); h > 0 && hot > 0 {
					sr.Heat = 1 + int(8*float64(h)/float64(hot))
					sr.Heat = min(sr.Heat, 9)
				}
				var fns []string
				for _, i := range li.idx {
					fns = append(fns, r.Lines[i].Func)
				}
				sr.Title = fmt.Sprintf("%s: allocated %s in %d allocations", strings.Join(fns, ", "), Bytes(li.alloc), htmlAllocs(r, li.idx))
			}
			return sr
		}
		gap := func(from, to int, known bool) htmlSrcRow {
			k := to - from + 1
			g := htmlSrcRow{Gap: true, N: from}
			switch {
			case !known:
				g.Skip = fmt.Sprintf("lines %d–%d", from, to)
				if k == 1 {
					g.Skip = fmt.Sprintf("line %d", from)
				}
			case k == 1:
				g.Skip = "1 line"
			default:
				g.Skip = strconv.Itoa(k) + " lines"
			}
			return g
		}
		lines, err := src.lines(name)
		if err != nil || !htmlSourceMatches(lines, nums, func(n int) string { return m[n].text }) {
			if err != nil {
				f.Note = "source not found; showing the profiled lines only"
			} else {
				f.Note = "the source file differs from the profile (changed since the run?); showing the profiled lines only"
			}
			prev := 0
			for _, n := range nums {
				if n > prev+1 && prev > 0 {
					f.Rows = append(f.Rows, gap(prev+1, n-1, false))
				}
				f.Rows = append(f.Rows, row(n, m[n].text))
				prev = n
			}
			files = append(files, f)
			continue
		}
		show := make([]bool, len(lines)+2)
		for _, n := range nums {
			for k := n - htmlContext; k <= n+htmlContext; k++ {
				if k >= 1 && k <= len(lines) {
					show[k] = true
				}
			}
		}
		for k := 1; k <= len(lines); {
			if show[k] {
				f.Rows = append(f.Rows, row(k, lines[k-1]))
				k++
				continue
			}
			e := k
			for e+1 <= len(lines) && !show[e+1] {
				e++
			}
			if e == k {
				// A run of one is shown rather than collapsed.
				f.Rows = append(f.Rows, row(k, lines[k-1]))
			} else {
				f.Rows = append(f.Rows, gap(k, e, true))
			}
			k = e + 1
		}
		files = append(files, f)
	}
	return files
}

func htmlAllocs(r *profile.Root, idx []int) int64 {
	n := int64(0)
	for _, i := range idx {
		n += r.Lines[i].Allocs
	}
	return n
}

// htmlDiff is the diff view.
type htmlDiff struct {
	Base, Change string
	Roots        []htmlDiffRoot
}

type htmlDiffRoot struct {
	Name, Status string
	Qs           string
	Base, Change string
	Delta        string
	Percent      string
	Up, Down     bool
	Inexact      bool
	Lines        []htmlDiffLine
	More         int
	// Noise says how many lines the noise floor kept from the list.
	Noise string
}

type htmlDiffLine struct {
	Delta, Pos, Func, Text string
	Base, Change           string
	Up                     bool
	// Width is the bar's length in per cent of the half width.
	Width string
}

func newHTMLDiff(d *Diff, n int) *htmlDiff {
	hd := &htmlDiff{Base: d.Base, Change: d.Change}
	for i := range d.Roots {
		r := &d.Roots[i]
		hr := htmlDiffRoot{Name: r.Name, Status: r.Status, Base: Bytes(r.Base), Change: Bytes(r.Change), Delta: signed(r.Delta()),
			Percent: r.PercentString(), Up: r.Delta() > 0, Down: r.Delta() < 0, Inexact: !r.BaseExact || !r.ChangeExact}
		hr.Qs = "p = " + strconv.Itoa(r.ChangeQ)
		if r.BaseQ != r.ChangeQ {
			hr.Qs = fmt.Sprintf("p = %d → p = %d", r.BaseQ, r.ChangeQ)
		}
		widest := int64(0)
		for _, l := range r.Lines {
			widest = max(widest, l.Delta(), -l.Delta())
		}
		lines, more := DiffOptions{Lines: n}.shown(r)
		hr.More, hr.Noise = more, noiseNote(r, d.Noise)
		for _, l := range lines {
			dl := htmlDiffLine{Delta: signed(l.Delta()), Pos: l.Pos(), Func: l.Func, Text: l.source(), Base: Bytes(l.Base), Change: Bytes(l.Change), Up: l.Delta() > 0}
			if l.BaseLine > 0 && l.Line > 0 && l.BaseLine != l.Line {
				dl.Pos += " (was " + strconv.Itoa(l.BaseLine) + ")"
			}
			dl.Width = htmlPct(max(l.Delta(), -l.Delta()), widest)
			hr.Lines = append(hr.Lines, dl)
		}
		hd.Roots = append(hd.Roots, hr)
	}
	return hd
}

// htmlSourceMatches reports whether the file's lines are those the
// profile saw: long enough, and the profiled lines' text (the runtime
// keeps up to 200 bytes of it) as recorded.
func htmlSourceMatches(lines []string, nums []int, text func(int) string) bool {
	if len(lines) < nums[len(nums)-1] {
		return false
	}
	for _, n := range nums {
		want := text(n)
		if want == "" {
			continue
		}
		got := strings.TrimSpace(lines[n-1])
		if len(got) > len(want) {
			got = got[:len(want)]
		}
		if got != want {
			return false
		}
	}
	return true
}
