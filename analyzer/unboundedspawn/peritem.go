package unboundedspawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/groups"
)

// perItem returns the variables that hold the loop's current item or data
// derived from it: the seeds, and, to a fixed point, the variables declared
// in the loop that are assigned from them, filled through &v by a call
// that mentions them, or bound by a range or type switch over them.
func (c *checker) perItem(loop ast.Stmt, seeds []types.Object) map[types.Object]bool {
	info := c.pass.TypesInfo
	set := map[types.Object]bool{}
	for _, s := range seeds {
		set[s] = true
	}
	changed := true
	addObj := func(o types.Object) {
		if o != nil && !set[o] && loop.Pos() <= o.Pos() && o.Pos() < loop.End() {
			set[o] = true
			changed = true
		}
	}
	add := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			addObj(info.ObjectOf(id))
		}
	}
	anyRefs := func(es []ast.Expr) bool {
		for _, e := range es {
			if c.refs(e, set) {
				return true
			}
		}
		return false
	}
	for changed {
		changed = false
		ast.Inspect(loopBody(loop), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if anyRefs(n.Rhs) {
					for _, l := range n.Lhs {
						add(l)
					}
				}
			case *ast.ValueSpec:
				if anyRefs(n.Values) {
					for _, id := range n.Names {
						add(id)
					}
				}
			case *ast.RangeStmt:
				if c.refs(n.X, set) {
					add(n.Key)
					add(n.Value)
				}
			case *ast.CallExpr:
				if c.refs(n, set) {
					for _, a := range n.Args {
						if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
							add(u.X)
						}
					}
				}
			case *ast.TypeSwitchStmt:
				if as, ok := n.Assign.(*ast.AssignStmt); ok && anyRefs(as.Rhs) {
					for _, cl := range n.Body.List {
						addObj(info.Implicits[cl])
					}
				}
			}
			return true
		})
	}
	return set
}

// refs reports whether n mentions a variable of set.
func (c *checker) refs(n ast.Node, set map[types.Object]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && set[c.pass.TypesInfo.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// works reports whether the child does something that allocates or holds
// memory: any spawn of a named function or function value (the callee may
// do anything), or a literal that allocates (composite literal, string
// concatenation, make, new, append, a conversion to string or slice), sends
// on a channel, or calls a function other than cheap builtins, group
// methods and package sync and sync/atomic.
func (c *checker) works(sp spawn) bool {
	if sp.lit == nil {
		return true
	}
	info := c.pass.TypesInfo
	return find(sp.lit.Body, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit, *ast.SendStmt:
			return true
		case *ast.BinaryExpr:
			tv := info.Types[n]
			if tv.Type == nil || n.Op != token.ADD || tv.Value != nil {
				return false
			}
			t, ok := tv.Type.Underlying().(*types.Basic)
			return ok && t.Info()&types.IsString != 0
		case *ast.CallExpr:
			return c.costly(n)
		}
		return false
	})
}

// costly reports whether call may allocate or hold memory.
func (c *checker) costly(call *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		switch u := tv.Type.Underlying().(type) {
		case *types.Slice:
			return true
		case *types.Basic:
			return u.Info()&types.IsString != 0
		}
		return false
	}
	for _, name := range []string{"make", "new", "append"} {
		if c.isBuiltin(call, name) {
			return true
		}
	}
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		if _, ok := info.Uses[f].(*types.Builtin); ok {
			return false
		}
	case *ast.SelectorExpr:
		if _, ok := info.Uses[f.Sel].(*types.Builtin); ok {
			return false // unsafe.Sizeof and the like
		}
	}
	if _, ok := groups.MethodCall(info, call); ok {
		return false
	}
	if fn := typeutil.StaticCallee(info, call); fn != nil && fn.Pkg() != nil {
		if p := fn.Pkg().Path(); p == "sync" || p == "sync/atomic" {
			return false
		}
	}
	return true
}

// longLived reports whether the child looks like a long-lived worker or
// service rather than the handling of one item: it (or a function of the
// package it calls directly) loops receiving from channels (a for loop
// that contains a select or a receive, or a range over a channel), or it
// calls a function with a service name (see serviceName).
func (c *checker) longLived(sp spawn) bool {
	if fn := c.callee(sp); fn != nil && serviceName(fn.Name()) {
		return true
	}
	for _, b := range c.childBodies(sp) {
		found := find(b, nil, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				fn := typeutil.Callee(c.pass.TypesInfo, n)
				return fn != nil && serviceName(fn.Name())
			case *ast.ForStmt:
				return c.receives(n.Body)
			case *ast.RangeStmt:
				return c.isChan(n.X) || c.receives(n.Body)
			}
			return false
		})
		if found {
			return true
		}
	}
	return false
}

// receives reports whether n contains a select or a channel receive.
func (c *checker) receives(n ast.Node) bool {
	return find(n, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectStmt:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		case *ast.RangeStmt:
			return c.isChan(n.X)
		}
		return false
	})
}

// isChan reports whether e is a channel.
func (c *checker) isChan(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// serviceName reports whether a function's name says it runs for the
// life of a service: Serve, ListenAndServe, Start, or a last word Loop,
// Worker, Daemon, Watcher, Monitor, Poller, Listener or Serve
// (readLoop, startWorker).
func serviceName(name string) bool {
	switch strings.ToLower(name) {
	case "serve", "servetls", "listenandserve", "listenandservetls", "start":
		return true
	}
	ws := words(name)
	if len(ws) == 0 {
		return false
	}
	switch ws[len(ws)-1] {
	case "loop", "worker", "daemon", "watcher", "monitor", "poller", "listener", "serve":
		return true
	}
	return false
}

// childBodies returns the code the child runs that this package holds: the
// body of the function it runs, and of the functions that calls directly.
func (c *checker) childBodies(sp spawn) []*ast.BlockStmt {
	first := c.body(sp.fn)
	if first == nil {
		return nil
	}
	return append([]*ast.BlockStmt{first}, c.calledBodies(first)...)
}

// body returns the body of the function fn denotes, if the package holds
// it: a literal, a function or method declared in the package, or a local
// variable set to one literal.
func (c *checker) body(fn ast.Expr) *ast.BlockStmt {
	var obj types.Object
	switch f := ast.Unparen(fn).(type) {
	case *ast.FuncLit:
		return f.Body
	case *ast.Ident:
		obj = c.pass.TypesInfo.Uses[f]
	case *ast.SelectorExpr:
		obj = c.pass.TypesInfo.Uses[f.Sel]
	}
	switch o := obj.(type) {
	case *types.Func:
		if d := c.decls[o.Origin()]; d != nil {
			return d.Body
		}
	case *types.Var:
		if lit := c.lits[o]; lit != nil && !o.IsField() {
			return lit.Body
		}
	}
	return nil
}

// calledBodies returns the bodies of the functions n calls directly that
// the package holds, each once.
func (c *checker) calledBodies(n ast.Node) []*ast.BlockStmt {
	var out []*ast.BlockStmt
	seen := map[*ast.BlockStmt]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); !lit {
				if b := c.body(call.Fun); b != nil && !seen[b] {
					seen[b] = true
					out = append(out, b)
				}
			}
		}
		return true
	})
	return out
}

// words splits a Go name into its lower-cased camel-case words:
// "TryAcquire" is try, acquire; "RLock" is r, lock; "HTTPServer" is http,
// server.
func words(name string) []string {
	var out []string
	rs := []rune(name)
	start := 0
	lower := func(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }
	upper := func(r rune) bool { return 'A' <= r && r <= 'Z' }
	for i := 1; i <= len(rs); i++ {
		split := i == len(rs) || rs[i] == '_'
		if !split && upper(rs[i]) {
			split = lower(rs[i-1]) || (upper(rs[i-1]) && i+1 < len(rs) && lower(rs[i+1]))
		}
		if split {
			if w := strings.Trim(string(rs[start:i]), "_"); w != "" {
				out = append(out, strings.ToLower(w))
			}
			start = i
		}
	}
	return out
}
