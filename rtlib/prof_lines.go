package rtlib

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spgo/spgo/rtlib/mhwm"
	"github.com/spgo/spgo/rtlib/profile"
)

type lineKey struct {
	file string
	line int
	fn   string
}

// lineTable builds a root's per-line rows, keyed by source line.
type lineTable struct {
	rows  map[lineKey]*profile.Line
	bySit map[Site]lineKey
	text  *sourceCache
}

func (lt *lineTable) row(site Site) *profile.Line {
	if k, ok := lt.bySit[site]; ok {
		return lt.rows[k]
	}
	k := lineKey{"(unknown)", 0, "(unknown)"}
	rec, known := Lookup(site)
	if known {
		k = lineKey{sourceName(rec.File), int(rec.Line), rec.Func}
	}
	lt.bySit[site] = k
	l := lt.rows[k]
	if l == nil {
		l = &profile.Line{File: k.file, Line: k.line, Func: k.fn, MHWMBytes: map[string]int64{}}
		if known {
			l.Text = lt.text.line(rec.File, int(rec.Line))
		}
		lt.rows[k] = l
	}
	return l
}

// lines builds the per-line table (allocation totals by site, each site's
// share of MHWM_q for the attributed q) and the serial heap series.
func (r *proot) lines(res *mhwm.Result, out *profile.Root) {
	lt := &lineTable{rows: map[lineKey]*profile.Line{}, bySit: map[Site]lineKey{}, text: &sourceCache{}}
	tt := newTypeTable(lt)
	pr := &pathRows{}
	for s, n := range r.allocB {
		if n != 0 || r.allocN[s] != 0 {
			l := lt.row(Site(s))
			l.AllocBytes += n
			l.Allocs += r.allocN[s]
			tt.alloc(Site(s), n, r.allocN[s])
			pr.alloc(lt, Site(s), n, r.allocN[s])
		}
	}
	if res.MHWM != nil && res.TraceDropped == 0 { // dropped: a warning says so (writeProfile)
		qs := attributedQs(res, cfg.attribute)
		for i, q := range qs {
			a, err := res.Attribute(q)
			if err != nil { // an internal error: say so where it is read
				out.Reasons = append(out.Reasons, "per-line attribution failed (an spgo bug; the per-line figures stop at p = "+strconv.Itoa(q-1)+"): "+err.Error())
				out.Exact = false
				qs = qs[:i]
				break
			}
			key := strconv.Itoa(q)
			for _, sh := range a.Sites {
				if sh.Total() == 0 {
					continue
				}
				l := lt.row(Site(sh.Site))
				l.MHWMBytes[key] += sh.Total()
				tt.share(Site(sh.Site), key, sh.Total())
				pr.share(lt, Site(sh.Site), key, sh.Total())
				if l.MHWMSplit == nil {
					l.MHWMSplit = map[string]profile.Split{}
				}
				sp := l.MHWMSplit[key]
				sp.Running += sh.Running
				sp.Completed += sh.Completed
				sp.Suspended += sh.Suspended
				l.MHWMSplit[key] = sp
			}
		}
		out.Attributed = qs
	}
	points, byteNs, haveHeap := res.SerialHeap(heapPoints)
	for _, pt := range points {
		for _, sb := range pt.Sites {
			lt.row(Site(sb.Site))
		}
	}
	tt.attach()
	rows := make([]profile.Line, 0, len(lt.rows))
	for _, l := range lt.rows {
		rows = append(rows, *l)
	}
	slices.SortFunc(rows, func(a, b profile.Line) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Func, b.Func)
	})
	out.Lines = rows
	out.Paths = pr.build(rows)
	if !haveHeap {
		return
	}
	index := map[lineKey]int{}
	for i, l := range rows {
		index[lineKey{l.File, l.Line, l.Func}] = i
	}
	h := &profile.Heap{WallByteSeconds: byteNs / 1e9, Samples: []profile.HeapSample{}}
	for _, pt := range points {
		hs := profile.HeapSample{Strand: pt.Strand, WallSeconds: float64(pt.Time) / 1e9, Bytes: pt.Bytes, Types: tt.sample(pt.Sites)}
		byLine := map[int]int64{}
		for _, sb := range pt.Sites {
			byLine[index[lt.bySit[Site(sb.Site)]]] += sb.Bytes
		}
		for _, i := range slices.Sorted(maps.Keys(byLine)) {
			if byLine[i] != 0 {
				hs.Lines = append(hs.Lines, profile.LineBytes{Index: i, Bytes: byLine[i]})
			}
		}
		h.Samples = append(h.Samples, hs)
	}
	out.Heap = h
}

// heapPoints bounds the samples of a root's heap series.
const heapPoints = 400

// sourceCache reads source lines for the per-line table, each file once.
type sourceCache struct {
	files map[string][]string
}

// line returns line n of file, trimmed, or "" if it cannot be read.
func (c *sourceCache) line(file string, n int) string {
	if c.files == nil {
		c.files = map[string][]string{}
	}
	lines, ok := c.files[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil && len(data) <= 16<<20 {
			lines = strings.Split(string(data), "\n")
		}
		c.files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	t := strings.TrimSpace(lines[n-1])
	if len(t) > 200 {
		t = t[:200]
		for !utf8.ValidString(t) {
			t = t[:len(t)-1]
		}
	}
	return t
}

// antichain summarises the worst case for the largest q.
func antichain(res *mhwm.Result) *profile.Antichain {
	if res == nil || res.MHWM == nil {
		return nil
	}
	a, err := res.Attribute(res.PMax)
	if err != nil {
		return nil
	}
	ac := &profile.Antichain{P: res.PMax, Bytes: a.MHWM}
	for _, s := range a.Sites {
		ac.Running += s.Running
		ac.Completed += s.Completed
		ac.Suspended += s.Suspended
	}
	return ac
}
