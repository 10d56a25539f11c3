//go:build unix

package report

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The HTML report in a real browser: headless Chromium loads the page,
// runs its script and dumps the DOM, then takes a screenshot. CI installs
// Debian's chromium (.ci/install-chromium); elsewhere the test is skipped
// without one. SPGO_CHROMIUM names a browser binary explicitly.

func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("SPGO_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		if p2, err := exec.LookPath(p); err == nil {
			return p2
		}
		t.Fatalf("SPGO_CHROMIUM=%s: not found", p)
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium missing in CI: .ci/install-chromium should have installed it")
	}
	t.Skip("no chromium (set SPGO_CHROMIUM or run SPGO_INSTALL_CHROMIUM=1 bash .ci/install-chromium)")
	return ""
}

// runChromium runs the browser headless on url with extra flags and
// returns its standard output.
func runChromium(t *testing.T, bin, url string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--hide-scrollbars", "--mute-audio",
		"--user-data-dir=" + t.TempDir()}
	args = append(append(args, extra...), url)
	cmd := exec.CommandContext(ctx, bin, args...)
	// The browser's own processes go with it on a timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("chromium %s: %v", strings.Join(extra, " "), time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		t.Fatalf("chromium timed out after 60 s; stderr:\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("chromium: %v; stderr:\n%s", err, stderr.String())
	}
	return stdout.Bytes()
}

func TestHTMLInBrowser(t *testing.T) {
	bin := findChromium(t)
	dir := t.TempDir()
	p := readHTMLProfile(t, "tiles")
	abs, err := filepath.Abs(filepath.Join("..", "..", "testdata", "examples", "tiles"))
	if err != nil {
		t.Fatal(err)
	}
	p.SourceRoot = abs
	page := writeTestHTML(t, p, HTMLOptions{Title: "-pmax 64", Diff: tilesDiff(t), SourceDir: abs})
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(file)
	r := &p.Roots[0]

	t.Run("dom", func(t *testing.T) {
		t.Parallel()
		dom := string(runChromium(t, bin, url, "--dump-dom"))
		doc, err := parseTestHTML(dom)
		if err != nil {
			t.Fatalf("DOM dump does not parse: %v\n%.2000s", err, dom)
		}
		body := doc.one(t, "body")
		if body.Attr["data-ready"] != "1" {
			t.Fatalf("the script did not finish: body data-ready=%q", body.Attr["data-ready"])
		}
		sec := doc.one(t, "#root-0")
		if sec.Attr["data-q"] != "64" {
			t.Errorf("per-line view at q=%q, want the default 64", sec.Attr["data-q"])
		}
		if _, dis := sec.one(t, "select.qsel").Attr["disabled"]; dis {
			t.Error("the script did not enable the q switch")
		}
		if n := len(sec.one(t, "svg.mhwmchart").sel("circle.pt")); n != 64 {
			t.Errorf("%d MHWM points, want 64", n)
		}
		if n := len(sec.one(t, "svg.bandchart").sel("path.band")); n != 3 {
			t.Errorf("%d heap bands, want 3", n)
		}
		rows := sec.one(t, "tbody.barrows").sel("tr")
		if len(rows) != 3 {
			t.Fatalf("%d per-line rows after the script, want 3", len(rows))
		}
		// The script re-rendered the default rows as the server did.
		for i, want := range []string{"main.go:31", "32 MiB", "94.0%", "scratch := make([]byte, Scratch)"} {
			if !strings.Contains(rows[0].text(), want) {
				t.Errorf("first row %q lacks %q (%d)", rows[0].text(), want, i)
			}
		}
		// The annotated source comes from the file, not only the lines
		// the profile names.
		if src := sec.one(t, "table.src").text(); !strings.Contains(src, "scratch[i] = byte(i*7 + t*13)") {
			t.Errorf("annotated source lacks an unannotated line of main.go:\n%.1000s", src)
		}
		if n := len(doc.one(t, "#diff").one(t, "table.dlines").sel("tr")); n < 3 {
			t.Errorf("%d diff rows", n)
		}
	})

	t.Run("dom-q1", func(t *testing.T) {
		t.Parallel()
		// #q=1 makes the script show the worst case at p = 1.
		dom := string(runChromium(t, bin, url+"#q=1", "--dump-dom"))
		doc, err := parseTestHTML(dom)
		if err != nil {
			t.Fatalf("DOM dump does not parse: %v", err)
		}
		sec := doc.one(t, "#root-0")
		if sec.Attr["data-q"] != "1" {
			t.Fatalf("per-line view at q=%q, want 1", sec.Attr["data-q"])
		}
		v1, _ := r.MHWMAt(1)
		if got := sec.sel("b.qtotal")[0].text(); got != Bytes(v1) {
			t.Errorf("MHWM_1 shown as %q, want %q", got, Bytes(v1))
		}
		rows := sec.one(t, "tbody.barrows").sel("tr")
		b, _, _ := r.LineMHWM(&r.Lines[0], 1)
		if len(rows) == 0 || !strings.Contains(rows[0].text(), Bytes(b)) {
			t.Errorf("first row at q=1 %q, want %s", rows[0].text(), Bytes(b))
		}
		var hot string
		for _, td := range sec.one(t, "table.src").sel("td") {
			if td.hasClass("share") && td.Parent.hasClass("h9") {
				hot = td.text()
			}
		}
		if hot != Bytes(b) {
			t.Errorf("hottest source line at q=1 shows %q, want %q", hot, Bytes(b))
		}
	})

	t.Run("dom-sim", func(t *testing.T) {
		t.Parallel()
		// The simulated schedules follow the per-line view's p: #q=3
		// shows q = 2 and the simulated block of p = 2.
		file := filepath.Join(dir, "sim.html")
		if err := os.WriteFile(file, []byte(writeTestHTML(t, simProfile(), HTMLOptions{})), 0o644); err != nil {
			t.Fatal(err)
		}
		dom := string(runChromium(t, bin, "file://"+filepath.ToSlash(file)+"#q=3", "--dump-dom"))
		doc, err := parseTestHTML(dom)
		if err != nil {
			t.Fatalf("DOM dump does not parse: %v", err)
		}
		sec := doc.one(t, "#root-0")
		if sec.Attr["data-q"] != "2" {
			t.Fatalf("per-line view at q=%q, want 2", sec.Attr["data-q"])
		}
		if got := visibleSimP(t, sec); got != "2" {
			t.Errorf("simulated block shown for p = %s after the script, want 2", got)
		}
	})

	t.Run("dom-types", func(t *testing.T) {
		t.Parallel()
		// -by type: the table of types and the heap bands by type
		// survive the script; the table is the server's, largest first.
		// So does the table of work and span per spawn site.
		file := filepath.Join(dir, "types.html")
		if err := os.WriteFile(file, []byte(writeTestHTML(t, regionsProfile(t), HTMLOptions{By: "type"})), 0o644); err != nil {
			t.Fatal(err)
		}
		dom := string(runChromium(t, bin, "file://"+filepath.ToSlash(file), "--dump-dom"))
		doc, err := parseTestHTML(dom)
		if err != nil {
			t.Fatalf("DOM dump does not parse: %v", err)
		}
		if doc.one(t, "body").Attr["data-ready"] != "1" {
			t.Fatal("the script did not finish")
		}
		sec := doc.one(t, "#root-0")
		rows := sec.one(t, "tbody.typerows").sel("tr")
		if len(rows) < 4 || !strings.HasPrefix(rows[0].text(), "[]byte") || !strings.Contains(rows[0].text(), "4 MiB") {
			t.Fatalf("type rows after the script: %d, first %q", len(rows), rows[0].text())
		}
		legend := sec.one(t, "ol.bandlegend").text()
		if !strings.Contains(legend, "*main.block") || strings.Contains(legend, "main.go:") {
			t.Errorf("band legend by type %q", legend)
		}
		if n := len(sec.one(t, "svg.bandchart").sel("path.band")); n < 4 {
			t.Errorf("%d heap bands by type, want at least 4", n)
		}
		ws := sec.one(t, "tbody.wsrows").sel("tr")
		if len(ws) != 3 || !strings.HasPrefix(ws[0].text(), "(root)") || !strings.Contains(ws[2].text(), "1 outermost") {
			t.Errorf("work and span rows after the script: %d", len(ws))
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		t.Parallel()
		img := screenshot(t, bin, url, filepath.Join(dir, "browser.png"), "1200,2000")
		b := img.Bounds()
		if b.Dx() < 1000 || b.Dy() < 1500 {
			t.Fatalf("screenshot is %dx%d", b.Dx(), b.Dy())
		}
		counts := map[color.RGBA]int{}
		nonWhite := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
				counts[c]++
				if c.R < 240 || c.G < 240 || c.B < 240 {
					nonWhite++
				}
			}
		}
		frac := float64(nonWhite) / float64(b.Dx()*b.Dy())
		t.Logf("%.1f%% of the pixels are not white; %d colours", 100*frac, len(counts))
		if frac < 0.08 {
			t.Errorf("only %.1f%% of the screenshot is not white: a blank page?", 100*frac)
		}
		// The page's colours: the header, the running-strand bars, the
		// two largest heap bands, the diff's increases and decreases.
		for _, want := range []struct{ name, hex string }{
			{"header", "#1f2a37"}, {"running bars", "#d9534f"},
			{"heap band 1", htmlBandColors[0]}, {"heap band 2", htmlBandColors[1]},
			{"diff increase", "#d64541"}, {"diff decrease", "#2e9b5f"},
		} {
			c := hexColor(t, want.hex)
			if counts[c] < 50 {
				t.Errorf("%s colour %s covers %d pixels, want a visible area", want.name, want.hex, counts[c])
			}
		}
	})
}

// screenshot has the browser take a screenshot of url at size ("W,H")
// into file and returns it decoded; with SPGO_HTML_OUT set, a copy of the
// file goes there.
func screenshot(t *testing.T, bin, url, file, size string) image.Image {
	t.Helper()
	runChromium(t, bin, url, "--screenshot="+file, "--window-size="+size)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("SPGO_HTML_OUT"); out != "" {
		if b, err := os.ReadFile(file); err == nil {
			os.WriteFile(filepath.Join(out, filepath.Base(file)), b, 0o644)
		}
	}
	return img
}

func hexColor(t *testing.T, s string) color.RGBA {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}
