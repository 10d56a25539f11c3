package tailstrict

import (
	"go/ast"
	"go/token"
)

// splitFuncs are the strings and bytes functions that cut data into pieces.
var splitFuncs = map[string]bool{
	"Split": true, "SplitAfter": true, "SplitN": true, "SplitAfterN": true,
	"Fields": true, "FieldsFunc": true, "Lines": true, "SplitSeq": true,
	"SplitAfterSeq": true, "FieldsSeq": true, "FieldsFuncSeq": true,
}

// trimFuncs are the strings and bytes functions the data may pass through
// on its way to the split.
var trimFuncs = map[string]bool{
	"TrimSpace": true, "Trim": true, "TrimLeft": true, "TrimRight": true,
	"TrimPrefix": true, "TrimSuffix": true, "ToLower": true, "ToUpper": true,
}

// readAll checks data, err := io.ReadAll(r) where data is used only by one
// split whose pieces are ranged over once.
func (c *checker) readAll(call *ast.CallExpr) {
	as, ok := c.idx.up(call).(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || len(as.Lhs) != 2 {
		return
	}
	data := c.localVar(as.Lhs[0])
	if data == nil {
		return
	}
	us := c.idx.uses[data]
	if len(us) != 1 || c.idx.funcOf[us[0]] != c.idx.funcOf[c.idx.def[data]] {
		return
	}
	if as.Tok == token.ASSIGN {
		return // data is reused: its other values are not ours to judge
	}
	split := c.splitOf(us[0])
	if split == nil {
		return
	}
	loop := c.rangedOnce(split)
	if loop == nil || c.fillsSink(loop.Body) {
		return // a loop that copies every piece into memory keeps O(input) anyway
	}
	if c.ssaIndex().bounded(call.Lparen) {
		return
	}
	c.rep.Reportf(call, "io.ReadAll holds the whole input (and then all of its pieces) in memory to range over it once; read it piece by piece with bufio.Scanner so one line is live at a time")
}

// splitOf returns the split call that use of the data feeds, through
// conversions and trims, or nil.
func (c *checker) splitOf(use ast.Expr) *ast.CallExpr {
	e := use
	for {
		call, ok := c.idx.up(e).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 || ast.Unparen(call.Args[0]) != e {
			return nil
		}
		if tv := c.pass.TypesInfo.Types[call.Fun]; tv.IsType() {
			e = call // string(data), []byte(s)
			continue
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || (fn.Pkg().Path() != "strings" && fn.Pkg().Path() != "bytes") {
			return nil
		}
		switch {
		case trimFuncs[fn.Name()]:
			e = call
		case splitFuncs[fn.Name()]:
			return call
		default:
			return nil
		}
	}
}

// rangedOnce returns the loop that ranges over the pieces of split once:
// directly, or through a local variable used only by that range.
func (c *checker) rangedOnce(split *ast.CallExpr) *ast.RangeStmt {
	switch p := c.idx.up(split).(type) {
	case *ast.RangeStmt:
		if ast.Unparen(p.X) == split {
			return p
		}
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Lhs) != 1 {
			return nil
		}
		v := c.localVar(p.Lhs[0])
		if v == nil {
			return nil
		}
		fn := c.idx.funcOf[c.idx.def[v]]
		var loop *ast.RangeStmt
		for _, u := range c.idx.uses[v] {
			switch r, _ := c.idx.up(u).(*ast.RangeStmt); {
			case c.idx.funcOf[u] != fn:
				return nil
			case r != nil && ast.Unparen(r.X) == u && loop == nil:
				loop = r
			case loop != nil && within(u, loop.Body) && c.idx.keyedRead(u, rangeKey(c.pass.TypesInfo, loop)):
			default:
				return nil
			}
		}
		return loop
	}
	return nil
}
