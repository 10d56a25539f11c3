package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/spgo/spgo/rtlib/profile"
)

// The work and span per spawn site (Root.Regions), after Cilkscale's
// per-region table: text and HTML share the rows below.

// workSpanNote says what the figures are and how far to trust them.
const workSpanNote = "strands: counts of the recorded graph's strands, deterministic; " +
	"wall: the recorded serial run's strand durations (wall clock, nanosecond resolution, " +
	"rtlib's bookkeeping included), which vary from run to run"

// workSpanRow is one region: the root or a spawn site.
type workSpanRow struct {
	Site               string // "(root)" or file:line
	Spawns             string // instances, and the outermost if fewer
	Work, Span, Par    string // in strands
	WorkWall, SpanWall string
	ParWall            string
	isRoot             bool
}

// workSpanRows returns r's regions, the root first, then by work in
// strands, largest first, then by site; nil when r has none.
func workSpanRows(r *profile.Root) []workSpanRow {
	if len(r.Regions) == 0 {
		return nil
	}
	regs := slices.Clone(r.Regions)
	slices.SortStableFunc(regs, func(a, b profile.Region) int {
		if (a.Site == "") != (b.Site == "") {
			if a.Site == "" {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.WorkStrands, a.WorkStrands), cmp.Compare(a.Site, b.Site))
	})
	rows := make([]workSpanRow, 0, len(regs))
	for _, g := range regs {
		row := workSpanRow{Site: g.Site, Spawns: strconv.FormatInt(g.Instances, 10),
			Work: strconv.FormatInt(g.WorkStrands, 10), Span: strconv.FormatInt(g.SpanStrands, 10),
			Par:      ratio(g.WorkStrands, g.SpanStrands),
			WorkWall: Nanoseconds(g.WorkWallNS), SpanWall: Nanoseconds(g.SpanWallNS),
			ParWall: ratio(g.WorkWallNS, g.SpanWallNS),
			isRoot:  g.Site == ""}
		if row.isRoot {
			row.Site, row.Spawns = "(root)", "-"
		} else if g.Outermost < g.Instances {
			row.Spawns += fmt.Sprintf(" (%d outermost)", g.Outermost)
		}
		rows = append(rows, row)
	}
	return rows
}

// ratio formats work/span with one decimal, "-" for a zero span.
func ratio(work, span int64) string {
	if span <= 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(work)/float64(span), 'f', 1, 64)
}

// Nanoseconds formats a duration in nanoseconds with a unit and three
// significant digits at most: "950 ns", "2.06 µs", "13.4 ms", "1.50 s".
func Nanoseconds(ns int64) string {
	v := float64(ns)
	for _, u := range []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}} {
		if v >= u.scale {
			return strconv.FormatFloat(v/u.scale, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatInt(ns, 10) + " ns"
}

// workSpan writes the table of r's regions, the root and the n largest
// spawn sites (by work in strands), when r was recorded.
func workSpan(w io.Writer, r *profile.Root, n int) {
	rows := workSpanRows(r)
	if rows == nil {
		return
	}
	fmt.Fprintf(w, "  work and span per spawn site (%s):\n", workSpanNote)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "    site\tspawns\twork\tspan\tparallelism\twork (wall)\tspan (wall)\tparallelism (wall)\t\n")
	shown := 0
	for _, row := range rows {
		if !row.isRoot && n > 0 && shown == n {
			break
		}
		if !row.isRoot {
			shown++
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", row.Site, row.Spawns, row.Work, row.Span, row.Par, row.WorkWall, row.SpanWall, row.ParWall)
	}
	tw.Flush()
	if more := len(rows) - 1 - shown; more > 0 {
		fmt.Fprintf(w, "    … %d more spawn sites\n", more)
	}
}

// htmlWorkSpan is the HTML page's table of regions.
type htmlWorkSpan struct {
	Note string
	Rows []workSpanRow
	More int
}

// newHTMLWorkSpan returns the table of r's regions (the root and the n
// largest spawn sites), nil when r was not recorded.
func newHTMLWorkSpan(r *profile.Root, n int) *htmlWorkSpan {
	rows := workSpanRows(r)
	if rows == nil {
		return nil
	}
	ws := &htmlWorkSpan{Note: workSpanNote}
	if keep := n + 1; len(rows) > keep {
		ws.More = len(rows) - keep
		rows = rows[:keep]
	}
	ws.Rows = rows
	return ws
}
