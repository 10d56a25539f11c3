package tailstrict

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// smallLimit is the largest constant io.LimitReader bound treated as small.
const smallLimit = 1 << 20

// ssaIndex finds the SSA call instruction of a call expression by the
// position of its opening parenthesis.
type ssaIndex struct {
	calls map[token.Pos]ssa.CallInstruction
}

// newSSAIndex indexes the calls of the package's source functions.
func newSSAIndex(funcs []*ssa.Function) *ssaIndex {
	x := &ssaIndex{calls: map[token.Pos]ssa.CallInstruction{}}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if call, ok := in.(ssa.CallInstruction); ok && call.Pos().IsValid() {
					x.calls[call.Pos()] = call
				}
			}
		}
	}
	return x
}

// bounded reports whether the reader passed to the call at lparen is known
// to be in memory already or small: every value it can come from is a
// strings.Reader, bytes.Reader or bytes.Buffer, or an io.LimitReader with
// a constant bound of at most smallLimit.
func (x *ssaIndex) bounded(lparen token.Pos) bool {
	call := x.calls[lparen]
	if call == nil || len(call.Common().Args) == 0 {
		return false
	}
	return boundedReader(call.Common().Args[0], map[ssa.Value]bool{})
}

// boundedReader follows v back through conversions and phi nodes.
func boundedReader(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true // a cycle adds no new origin
	}
	seen[v] = true
	if inMemory(v.Type()) {
		return true
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return boundedReader(v.X, seen)
	case *ssa.ChangeInterface:
		return boundedReader(v.X, seen)
	case *ssa.ChangeType:
		return boundedReader(v.X, seen)
	case *ssa.TypeAssert:
		return !v.CommaOk && boundedReader(v.X, seen)
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !boundedReader(e, seen) {
				return false
			}
		}
		return len(v.Edges) > 0
	case *ssa.Call:
		fn := v.Common().StaticCallee()
		if fn == nil || fn.Pkg == nil {
			return false
		}
		switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
		case "io.LimitReader":
			n, ok := v.Common().Args[1].(*ssa.Const)
			if !ok || n.Value == nil {
				return false
			}
			lim, exact := constant.Int64Val(n.Value)
			return exact && lim <= smallLimit
		case "strings.NewReader", "bytes.NewReader", "bytes.NewBuffer", "bytes.NewBufferString":
			return true
		}
	}
	return false
}

// inMemory reports whether t is a reader over memory the program already
// holds.
func inMemory(t types.Type) bool {
	return typesx.IsNamed(t, "strings", "Reader") || typesx.IsNamed(t, "bytes", "Reader") || typesx.IsNamed(t, "bytes", "Buffer")
}
