package main

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// A generator writes a program's inputs: into w, the work directory, or
// into cwd, the directory the program runs in. Every generator is
// deterministic: a fixed seed, no clock, no environment.
type generator func(w, cwd string) error

// words is the vocabulary of the generated text; the last few are common
// misspellings (misspell reports them).
var words = strings.Fields(`the of and to in is that for it as with was on be by at this
from or an are not have which one all were when there can more if out so about what
time up some them other into has could two like then than first been water long call
people made over did down only way find use may part sound place where after back
little round year came show every good give under name very through just form much
great think say help low line before turn cause same mean differ move right boy old
too does tell sentence set three want air well also play small end put home read hand
port large spell add even land here must big high such follow act why ask men change
went light kind off need house picture try again animal point mother world near build
self earth father head stand own page should country found answer school grow study
still learn plant cover food sun four thought let keep eye never last door between
city tree cross since hard start might story saw far sea draw left late run while
press close night real life few stop recieve seperate definately occured untill wich`)

// newRand returns the generator's source of numbers for seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5350474f)) }

// writeLines writes n lines made by line to path.
func writeLines(path string, n int, line func(i int, b *strings.Builder)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	var b strings.Builder
	for i := range n {
		b.Reset()
		line(i, &b)
		b.WriteByte('\n')
		bw.WriteString(b.String())
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// sentence appends n words drawn from r; misspellings only if typos.
func sentence(r *rand.Rand, b *strings.Builder, n int, typos bool) {
	vocab := len(words)
	if !typos {
		vocab -= 6
	}
	for j := range n {
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(vocab)])
	}
}

// genText writes text.txt: 24 MiB of words (s2c).
func genText(w, _ string) error {
	r := newRand(1)
	return writeLines(filepath.Join(w, "text.txt"), 400_000, func(i int, b *strings.Builder) {
		fmt.Fprintf(b, "%07d ", i)
		sentence(r, b, 10+r.IntN(5), false)
	})
}

// genPaths writes paths.txt: 300 000 path-like lines (fzf).
func genPaths(w, _ string) error {
	r := newRand(2)
	return writeLines(filepath.Join(w, "paths.txt"), 300_000, func(i int, b *strings.Builder) {
		for j := range 3 + r.IntN(3) {
			if j > 0 {
				b.WriteByte('/')
			}
			b.WriteString(words[r.IntN(len(words)-6)])
		}
		fmt.Fprintf(b, "_%d.go", i%997)
	})
}

// genDocs writes docs/*.md: 40 files of 2 000 lines with a misspelling
// every few lines (misspell).
func genDocs(w, _ string) error {
	r := newRand(3)
	for k := range 40 {
		p := filepath.Join(w, "docs", fmt.Sprintf("d%02d.md", k))
		if err := writeLines(p, 2000, func(_ int, b *strings.Builder) {
			sentence(r, b, 12, r.IntN(8) == 0)
		}); err != nil {
			return err
		}
	}
	return nil
}

// genPNG writes in.png, a 1024×768 picture of rings and noise (bild).
func genPNG(w, _ string) error {
	r := newRand(4)
	img := image.NewNRGBA(image.Rect(0, 0, 1024, 768))
	for y := range 768 {
		for x := range 1024 {
			d := (x-400)*(x-400) + (y-300)*(y-300)
			n := uint8(r.IntN(48))
			img.SetNRGBA(x, y, color.NRGBA{uint8(d>>6) + n, uint8(x^y) + n, uint8(d>>9) ^ uint8(y), 255})
		}
	}
	f, err := os.Create(filepath.Join(w, "in.png"))
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("encode in.png: %w", err)
	}
	return f.Close()
}

// writeFile writes data to w/name, creating directories.
func writeFile(w, name, data string) error {
	p := filepath.Join(w, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(data), 0o644)
}
