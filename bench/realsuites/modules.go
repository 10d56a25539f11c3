package main

// module is one public module whose test suite the harness runs, pinned
// to an exact version.
type module struct {
	Short   string // a name for the table and the command line
	Path    string // module path
	Version string // exact version, as the module proxy serves it
}

// modules is the pinned list (the newest versions the proxy served on
// 2026-11-26). The first five are issue #22's; the rest were chosen for
// their goroutines, channels, WaitGroups and pools, and for suites that
// pass plain on this machine offline in reasonable time
// (github.com/cenkalti/backoff/v5 was left out: its suite ran for more
// than 8 minutes plain).
var modules = []module{
	{"x/sync", "golang.org/x/sync", "v0.25.0"},
	{"conc", "github.com/sourcegraph/conc", "v0.3.0"},
	{"pond", "github.com/alitto/pond/v2", "v2.7.1"},
	{"imaging", "github.com/disintegration/imaging", "v1.6.2"},
	{"bild", "github.com/anthonynsimon/bild", "v0.14.0"},
	{"ants", "github.com/panjf2000/ants/v2", "v2.12.1"},
	{"workerpool", "github.com/gammazero/workerpool", "v1.3.0"},
	{"x/time", "golang.org/x/time", "v0.16.0"},
	{"atomic", "go.uber.org/atomic", "v1.12.0"},
	{"goleak", "go.uber.org/goleak", "v1.3.0"},
	{"clockwork", "github.com/jonboulle/clockwork", "v0.5.0"},
	{"xsync", "github.com/puzpuzpuz/xsync/v4", "v4.5.0"},
}
