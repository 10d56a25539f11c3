// Command scale measures how spgo's cost grows with the work (issue
// #23): a spawn-heavy program (msort, strands in proportion to -n) and a
// small-object program (bintrees, allocations growing 4× with every two
// of -depth) at four sizes each, run uninstrumented at GOMAXPROCS=1 and
// instrumented (exact, SPGO_PMAX=128, SPGO_DEBUG_STATS=1) round after
// round, interleaved; medians of -runs.
//
// For each size it prints the strands and instrumented allocations (from
// the profile), the wall times and their ratio, the extra time per
// strand and per allocation, the peak RSS of both runs, the bytes the
// attribution trace holds at the root's end, and how long the root's end
// took (finishing the engine, then writing the profile: attribution,
// heap series, file), from rtlib's SPGO_DEBUG_STATS line. Every
// instrumented run must print what the plain one printed.
//
// Usage:
//
//	go run ./bench/scale [-runs 3] [-sizes 'msort=-n 15000,-n 150000;bintrees=-depth 10']
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spgo/spgo/bench/internal/harness"
)

// defaultSizes are four sizes per program: about 10^4, 1.6·10^5,
// 1.3·10^6 and 10^7 strands for msort (its halving makes the count a
// step function of -n), and 1.4·10^5 to 1.5·10^7 allocations of 16-byte
// nodes for bintrees, whose strands stay at 16: its cost grows with its
// allocations, not its spawns.
const defaultSizes = "msort=-n 15000,-n 150000,-n 1500000,-n 15000000;" +
	"bintrees=-depth 10,-depth 12,-depth 14,-depth 16"

// point is one program at one size.
type point struct {
	prog   string
	args   []string
	plain  []harness.Run
	inst   []harness.Run
	root   harness.Root // the first instrumented run's profile
	allocs int64        // instrumented allocations, summed over the profile's lines
	stats  []stats      // each instrumented run's root-end line
}

// stats is rtlib's SPGO_DEBUG_STATS line for the root.
type stats struct {
	strands, spawns, traceBytes int64
	finishMs, writeMs           float64
	cpuMs, writeCPUMs           float64
}

func main() {
	runs := flag.Int("runs", 3, "runs of each configuration (the median is reported)")
	sizes := flag.String("sizes", defaultSizes, "program=args,args,…;program=…")
	flag.Parse()
	points, err := parseSizes(*sizes)
	if err == nil {
		err = measure(points, *runs, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
	writeTable(os.Stdout, points, *runs)
}

// parseSizes reads 'prog=args,args;prog=args'.
func parseSizes(spec string) ([]*point, error) {
	var points []*point
	for _, kv := range strings.Split(spec, ";") {
		prog, list, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || prog == "" {
			return nil, fmt.Errorf("-sizes: %q is not program=args,args", kv)
		}
		for _, a := range strings.Split(list, ",") {
			points = append(points, &point{prog: prog, args: strings.Fields(a)})
		}
	}
	return points, nil
}

func measure(points []*point, runs int, log io.Writer) error {
	b, done, err := harness.TempBuilder("spgo-scale-*")
	if err != nil {
		return err
	}
	defer done()
	tmp := b.Dir
	built := map[string]bool{}
	for _, p := range points {
		if built[p.prog] {
			continue
		}
		built[p.prog] = true
		if _, err := b.Plain(p.prog, ""); err != nil {
			return err
		}
		if _, err := b.Instrumented(p.prog); err != nil {
			return err
		}
	}
	for round := 0; round < runs; round++ {
		for _, p := range points {
			if err := p.once(tmp, round); err != nil {
				return fmt.Errorf("%s %s: %w", p.prog, strings.Join(p.args, " "), err)
			}
			fmt.Fprintf(log, "round %d: %s %s done\n", round+1, p.prog, strings.Join(p.args, " "))
		}
	}
	return nil
}

// once runs p plain and instrumented.
func (p *point) once(tmp string, round int) error {
	plain, err := harness.Timed(filepath.Join(tmp, p.prog), p.args, []string{"GOMAXPROCS=1"})
	if err != nil {
		return err
	}
	prof := filepath.Join(tmp, p.prog+".json")
	inst, err := harness.Timed(filepath.Join(tmp, p.prog+".spgo"), p.args,
		[]string{"SPGO_PMAX=128", "SPGO_DEBUG_STATS=1", "SPGO_PROFILE=" + prof})
	if err != nil {
		return err
	}
	if inst.Stdout != plain.Stdout {
		return fmt.Errorf("instrumented output %q differs from plain %q", inst.Stdout, plain.Stdout)
	}
	s, err := parseStats(inst.Stderr)
	if err != nil {
		return err
	}
	p.plain, p.inst, p.stats = append(p.plain, plain), append(p.inst, inst), append(p.stats, s)
	if round == 0 {
		if p.root, err = harness.ReadRoot(prof); err != nil {
			return err
		}
		for _, l := range p.root.Lines {
			p.allocs += l.Allocs
		}
	}
	return nil
}

// parseStats finds the (last) SPGO_DEBUG_STATS line in stderr.
func parseStats(stderr string) (stats, error) {
	var s stats
	found := false
	for _, line := range strings.Split(stderr, "\n") {
		if !strings.HasPrefix(line, "spgo stats: ") {
			continue
		}
		if _, err := fmt.Sscanf(line, "spgo stats: strands %d spawns %d trace_bytes %d finish_ms %g write_ms %g cpu_ms %g write_cpu_ms %g",
			&s.strands, &s.spawns, &s.traceBytes, &s.finishMs, &s.writeMs, &s.cpuMs, &s.writeCPUMs); err != nil {
			return stats{}, fmt.Errorf("stats line %q: %w", line, err)
		}
		found = true
	}
	if !found {
		return stats{}, fmt.Errorf("no SPGO_DEBUG_STATS line on stderr: %q", stderr)
	}
	return s, nil
}

func medianOf[T any, V int64 | float64](xs []T, f func(T) V) V {
	vs := make([]V, len(xs))
	for i, x := range xs {
		vs[i] = f(x)
	}
	return harness.Median(vs)
}

func writeTable(w io.Writer, points []*point, runs int) {
	fmt.Fprintf(w, "Medians of %d interleaved runs; plain at GOMAXPROCS=1, instrumented exact at pmax 128; times are CPU time (user + system) but the root end's.\n\n", runs)
	fmt.Fprintln(w, "| program | strands | allocations | plain s | spgo s | × | extra µs / strand | extra ns / alloc | RSS plain / spgo MiB | trace MiB | root end wall ms (engine + profile) | profile CPU ms / total CPU s |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range points {
		secs := func(r harness.Run) float64 { return r.CPUSecs }
		rss := func(r harness.Run) int64 { return r.RSSKiB }
		ps, is := medianOf(p.plain, secs), medianOf(p.inst, secs)
		extra := is - ps
		fmt.Fprintf(w, "| %s %s | %d | %d | %.3f | %.3f | %.2f | %.2f | %.0f | %.0f / %.0f | %.1f | %.1f + %.1f | %.0f / %.2f |\n",
			p.prog, strings.Join(p.args, " "), p.root.Strands, p.allocs, ps, is, is/ps,
			extra/float64(max(p.root.Strands, 1))*1e6, extra/float64(max(p.allocs, 1))*1e9,
			float64(medianOf(p.plain, rss))/1024, float64(medianOf(p.inst, rss))/1024,
			float64(medianOf(p.stats, func(s stats) int64 { return s.traceBytes }))/(1<<20),
			medianOf(p.stats, func(s stats) float64 { return s.finishMs }),
			medianOf(p.stats, func(s stats) float64 { return s.writeMs }),
			medianOf(p.stats, func(s stats) float64 { return s.writeCPUMs }),
			medianOf(p.stats, func(s stats) float64 { return s.cpuMs })/1e3)
	}
}
