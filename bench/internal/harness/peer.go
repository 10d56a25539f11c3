package harness

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// The pprof peer: what a Go user who profiles memory runs. A binary that
// never references runtime.MemProfile has memory profiling disabled by
// the linker, so GODEBUG=memprofilerate=1 alone profiles nothing; the
// peer links runtime/pprof, sets runtime.MemProfileRate before main
// runs and writes a heap profile when main returns. It is built from the
// program's own files through go build -overlay: each file declaring
// func main gets it renamed to spgoPeerMain, and peerSource adds the
// main that wraps it.

// PeerRateEnv and PeerHeapEnv are the peer's environment variables: the
// MemProfileRate to set (unset: the runtime's default, 512 KiB) and the
// path of the heap profile written at exit.
const (
	PeerRateEnv = "SPGO_PEER_RATE"
	PeerHeapEnv = "SPGO_PEER_HEAP"
)

// peerMain is what the program's main is renamed to.
const peerMain = "spgoPeerMain"

// peerSource is the file the overlay adds to the main package.
const peerSource = `package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
)

func init() {
	if s := os.Getenv("` + PeerRateEnv + `"); s != "" {
		rate, err := strconv.Atoi(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pprof peer:", err)
			os.Exit(2)
		}
		runtime.MemProfileRate = rate
	}
}

func main() {
	` + peerMain + `()
	path := os.Getenv("` + PeerHeapEnv + `")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		runtime.GC() // the heap profile is as of the last collection
		err = pprof.WriteHeapProfile(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pprof peer:", err)
		os.Exit(2)
	}
}
`

// Profiled builds prog as the pprof peer (see PeerRateEnv) and returns
// the binary's path.
func (b *Builder) Profiled(prog string) (string, error) {
	overlay, err := peerOverlay(filepath.Join(b.Root, "bench", "progs", prog), filepath.Join(b.Dir, prog+".peer"))
	if err != nil {
		return "", fmt.Errorf("%s: the pprof peer: %w", prog, err)
	}
	bin := filepath.Join(b.Dir, prog+".pprof")
	if err := Sh(filepath.Join(b.Root, "bench", "progs"), nil, "go", "build", "-overlay", overlay, "-o", bin, "./"+prog); err != nil {
		return "", err
	}
	return bin, nil
}

// peerOverlay writes, under work, the renamed copies of the files of the
// main package in dir that declare func main, the wrapper, and the
// overlay file mapping them in; it returns the overlay file's path.
func peerOverlay(dir, work string) (string, error) {
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return "", err
	}
	replace := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		renamed, ok, err := renameMain(f, src)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		to := filepath.Join(work, filepath.Base(f))
		if err := os.WriteFile(to, renamed, 0o644); err != nil {
			return "", err
		}
		replace[f] = to
	}
	if len(replace) != 1 {
		return "", fmt.Errorf("%s: %d files declare func main, want 1", dir, len(replace))
	}
	wrapper := filepath.Join(work, "spgo_pprof_peer.go")
	if err := os.WriteFile(wrapper, []byte(peerSource), 0o644); err != nil {
		return "", err
	}
	replace[filepath.Join(dir, "spgo_pprof_peer.go")] = wrapper
	o, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return "", err
	}
	path := filepath.Join(work, "overlay.json")
	return path, os.WriteFile(path, o, 0o644)
}

// renameMain returns src with the name of its func main replaced by
// peerMain, and whether it declares one.
func renameMain(name string, src []byte) ([]byte, bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false, err
	}
	if f.Name.Name != "main" {
		return nil, false, nil
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Name.Name != "main" {
			continue
		}
		off := fset.Position(fd.Name.Pos()).Offset
		out := append([]byte{}, src[:off]...)
		out = append(out, peerMain...)
		return append(out, src[off+len("main"):]...), true, nil
	}
	return nil, false, nil
}
