package driver

import (
	"bytes"
	"strings"
	"testing"
)

// TestHangWatcher: after a test binary's timeout report, the modules of
// the module cache in the goroutine dump are named, with the flags that
// instrument them; the output passes through unchanged.
func TestHangWatcher(t *testing.T) {
	const cache = "/home/u/go/pkg/mod"
	dump := "goroutine 19 [select]:\n" +
		"github.com/benbjohnson/clock.(*Mock).Sleep(0x1, 0x2)\n" +
		"\t" + cache + "/github.com/benbjohnson/clock@v1.3.0/clock.go:194 +0x1d\n" +
		"go.uber.org/ratelimit.(*atomicLimiter).Take(0x3)\n" +
		"\t/src/ratelimit/limiter_atomic.go:60 +0x1f\n" +
		"\t" + cache + "/github.com/!burnt!sushi/toml@v1.4.0/decode.go:3 +0x1\n" +
		"\t" + cache + "/golang.org/x/sync@v0.22.0/errgroup/errgroup.go:70 +0x2\n" +
		"\t" + cache + "/github.com/benbjohnson/clock@v1.3.0/clock.go:200 +0x1\n" +
		"\t" + cache + "/cache/download/x@v1/y.go:1 +0x1\n" +
		"\t/usr/local/go/src/testing/testing.go:2036 +0xea\n"
	tests := []struct {
		name, out string
		want      []string // in the hint, in order; nil: no hint
	}{
		{"timeout", "=== RUN   TestMaxSlack\npanic: test timed out after 10m0s\n\trunning tests:\n" + dump,
			[]string{"(github.com/BurntSushi/toml, github.com/benbjohnson/clock)", "-instrument 'github.com/BurntSushi/toml/...' -instrument 'github.com/benbjohnson/clock/...' lets"}},
		{"a failure, no timeout", "--- FAIL: TestX\n" + dump, nil},
		{"timeout in the standard library only", "panic: test timed out after 1s\n\t/usr/local/go/src/time/sleep.go:1 +0x1\n", nil},
		{"timeout, no newline at the end", "panic: test timed out after 1s\n\t" + cache + "/example.com/m@v0.1.0/m.go:1 +0x1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := newHangWatcher(&buf, cache)
			// In pieces, as a pipe delivers it.
			for s := tt.out; s != ""; {
				n := min(len(s), 37)
				h.Write([]byte(s[:n]))
				s = s[n:]
			}
			if buf.String() != tt.out {
				t.Errorf("output changed:\n%q\nwant\n%q", buf.String(), tt.out)
			}
			hint := h.hint()
			if tt.want == nil {
				if hint != "" {
					t.Errorf("hint %q, want none", hint)
				}
				return
			}
			for _, w := range tt.want {
				if !strings.Contains(hint, w) {
					t.Errorf("hint %q lacks %q", hint, w)
				}
			}
			if strings.Contains(hint, "golang.org/x/sync") || strings.Contains(hint, "cache/download") {
				t.Errorf("hint %q names a module rtlib implements, or the download cache", hint)
			}
		})
	}
}
