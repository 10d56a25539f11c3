package mhwm

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Replay reads a text event stream and feeds it to a new Engine for cfg. It
// returns the result and the site names the stream declared.
//
// The format is line-based; '#' starts a comment:
//
//	site 3 main.go:12      name site 3
//	alloc 3 1024           1024 bytes allocated at site 3
//	free 3 1024            1024 bytes of site 3 released
//	work 250               250 time units in the current strand
//	limit 4                errgroup SetLimit(4) for the scope's next block
//	spawn | return | sync | call | callreturn
//
// The stream ends with an implicit exit. Errors name the line; lines are at
// most 1 MiB long.
func Replay(r io.Reader, cfg Config) (*Result, map[Site]string, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, nil, err
	}
	names := map[Site]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if err := replayLine(e, names, f); err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	res, err := e.Exit()
	if err != nil {
		return nil, nil, fmt.Errorf("end of stream: %w", err)
	}
	return res, names, nil
}

func replayLine(e *Engine, names map[Site]string, f []string) error {
	want := func(n int) error {
		if len(f) != n+1 {
			return fmt.Errorf("%s takes %d argument(s), got %d", f[0], n, len(f)-1)
		}
		return nil
	}
	num := func(s string) (int64, error) {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: bad number %q", f[0], s)
		}
		return v, nil
	}
	site := func(s string) (Site, error) {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("%s: bad site %q", f[0], s)
		}
		return Site(v), nil
	}
	switch f[0] {
	case "site":
		if len(f) < 3 {
			return fmt.Errorf("site takes a number and a name")
		}
		s, err := site(f[1])
		if err != nil {
			return err
		}
		names[s] = strings.Join(f[2:], " ")
		return nil
	case "alloc", "free":
		if err := want(2); err != nil {
			return err
		}
		s, err := site(f[1])
		if err != nil {
			return err
		}
		n, err := num(f[2])
		if err != nil {
			return err
		}
		if f[0] == "alloc" {
			return e.Alloc(s, n)
		}
		return e.Free(s, n)
	case "work", "limit":
		if err := want(1); err != nil {
			return err
		}
		n, err := num(f[1])
		if err != nil {
			return err
		}
		if f[0] == "limit" {
			if n != int64(int(n)) {
				return fmt.Errorf("limit %d out of range", n)
			}
			return e.SetLimit(int(n))
		}
		return e.Work(n)
	}
	switch f[0] {
	case "spawn", "return", "sync", "call", "callreturn":
	default:
		return fmt.Errorf("unknown event %q", f[0])
	}
	if err := want(0); err != nil {
		return err
	}
	switch f[0] {
	case "spawn":
		return e.Spawn()
	case "return":
		return e.Return()
	case "sync":
		return e.Sync()
	case "call":
		return e.Call()
	}
	return e.CallReturn()
}
