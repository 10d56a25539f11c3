package unboundedspawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/groups"
	"github.com/spgo/spgo/analyzer/internal/typesx"
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
// methods and package sync and sync/atomic. Values of no size (struct{}{})
// and functions of the package that only signal (see signalOnly) do not
// count.
func (c *checker) works(sp spawn) bool {
	if sp.lit == nil {
		return !c.signalOnly(c.body(sp.fn))
	}
	info := c.pass.TypesInfo
	return find(sp.lit.Body, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			return !c.zeroSize(n)
		case *ast.SendStmt:
			return !c.zeroSize(n.Value)
		case *ast.BinaryExpr:
			tv := info.Types[n]
			if tv.Type == nil || n.Op != token.ADD || tv.Value != nil {
				return false
			}
			t, ok := tv.Type.Underlying().(*types.Basic)
			return ok && t.Info()&types.IsString != 0
		case *ast.CallExpr:
			if _, lit := ast.Unparen(n.Fun).(*ast.FuncLit); !lit && c.signalOnly(c.body(n.Fun)) {
				return false
			}
			return c.costly(n)
		}
		return false
	})
}

// zeroSize reports whether the value of e takes no memory (struct{}{}).
func (c *checker) zeroSize(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	sizes := c.pass.TypesSizes
	if sizes == nil {
		sizes = types.SizesFor("gc", "amd64")
	}
	return sizes.Sizeof(t) == 0
}

// signalOnly reports whether body, the body of a function the package
// holds, does nothing but send values of no size (ch <- struct{}{}) and
// close channels: a signal, which holds no per-item memory.
func (c *checker) signalOnly(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.SendStmt:
			if !c.zeroSize(st.Value) {
				return false
			}
		case *ast.ExprStmt:
			call, ok := ast.Unparen(st.X).(*ast.CallExpr)
			if !ok || !c.isBuiltin(call, "close") {
				return false
			}
		default:
			return false
		}
	}
	return true
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
// calls a function with a service name (see serviceName); or the child
// runs the item (a Run or run method of a value holding the item, a
// function named Run or run; see runs), or is handed a stop signal (see
// stopSignal); or it is a method called directly on the item, of a type
// with a service name (see serviceRecv).
func (c *checker) longLived(sp spawn, items map[types.Object]bool) bool {
	if fn := c.callee(sp); fn != nil && serviceName(fn.Name()) {
		return true
	}
	if c.serviceRecv(sp, items) {
		return true
	}
	for _, call := range c.childCalls(sp) {
		if c.runs(sp, call, items) || c.stopSignal(call) {
			return true
		}
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

// runs reports whether call, made by the child, runs a component until it
// is told to stop (an informer, a discoverer, a protocol handler, a scrape
// loop) rather than handling one item: it calls a function named Run or
// run, or a method or function field so named of a value that holds the
// item (a variable of items, or a parameter of the literal the child
// runs). A method of another value (go w.run(item)) is the handling of
// one item; so is os/exec's Cmd.Run, which runs a process to its end.
func (c *checker) runs(sp spawn, call *ast.CallExpr, items map[types.Object]bool) bool {
	fn := typeutil.Callee(c.pass.TypesInfo, call)
	if fn == nil || (fn.Name() != "Run" && fn.Name() != "run") {
		return false
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "os/exec" {
		return false
	}
	if f, ok := fn.(*types.Func); ok && f.Signature().Recv() == nil {
		return true
	}
	// A method, or a function field (Protocol.Run).
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && c.pass.TypesInfo.Selections[sel] != nil && c.holdsItem(sp, sel.X, items)
}

// holdsItem reports whether e mentions a variable of items or a parameter
// of the function literal the child runs.
func (c *checker) holdsItem(sp spawn, e ast.Expr, items map[types.Object]bool) bool {
	if c.refs(e, items) {
		return true
	}
	if sp.lit == nil {
		return false
	}
	params := map[types.Object]bool{}
	for _, f := range sp.lit.Type.Params.List {
		for _, id := range f.Names {
			if o := c.pass.TypesInfo.Defs[id]; o != nil {
				params[o] = true
			}
		}
	}
	return c.refs(e, params)
}

// serviceRecv reports whether the child is a method called directly on a
// value that holds the item (go l.run(), go w.Step()), of a type with a
// service name (see serviceName): a loop interface, a *scrapeLoop, a
// worker. The item is then a component the loop starts.
func (c *checker) serviceRecv(sp spawn, items map[types.Object]bool) bool {
	sel, ok := ast.Unparen(sp.fn).(*ast.SelectorExpr)
	if !ok || sp.lit != nil {
		return false
	}
	if s := c.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return false
	}
	name := typeName(c.pass.TypesInfo.TypeOf(sel.X))
	return name != "" && serviceName(name) && c.refs(sel.X, items)
}

// childCalls returns the calls the child makes itself: the go statement's
// call, and the calls in the body of a function literal it runs (not in
// the literals nested in it).
func (c *checker) childCalls(sp spawn) []*ast.CallExpr {
	var out []*ast.CallExpr
	if sp.call != nil {
		out = append(out, sp.call)
	}
	if sp.lit != nil {
		ast.Inspect(sp.lit.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				out = append(out, n)
			}
			return true
		})
	}
	return out
}

// stopSignal reports whether call hands its callee a way to be told to
// stop, as a long-lived service gets: an argument x.Done() of channel
// type, or a channel of struct{} the callee may receive from, or a
// context.Context together with a channel the callee may receive from. A
// channel the callee can only send on (chan<- T), or one that its body,
// where the package holds it, sends on or closes, is where it reports
// back, not a stop signal or a feed. Builtins (close) get no signal.
func (c *checker) stopSignal(call *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false // a conversion or a builtin
	}
	var sig *types.Signature
	if t := info.TypeOf(call.Fun); t != nil {
		sig, _ = t.Underlying().(*types.Signature)
	}
	body, params := c.calleeParams(call)
	ctx, ch := false, false
	for i, a := range call.Args {
		if doneCall(a) && c.isChan(a) {
			return true
		}
		t := info.TypeOf(a)
		if p := paramType(sig, i, call.Ellipsis.IsValid()); p != nil {
			t = p
		}
		if t == nil {
			continue
		}
		if typesx.IsNamed(t, "context", "Context") {
			ctx = true
			continue
		}
		ct, ok := t.Underlying().(*types.Chan)
		if !ok || ct.Dir() == types.SendOnly {
			continue
		}
		if body != nil && i < len(params) && c.reportsOn(body, params[i]) {
			continue
		}
		if st, ok := ct.Elem().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			return true
		}
		ch = true
	}
	return ctx && ch
}

// calleeParams returns the body of the function call calls, if the
// package holds it (see body), and its parameters in order, but for a
// variadic one.
func (c *checker) calleeParams(call *ast.CallExpr) (*ast.BlockStmt, []types.Object) {
	var ft *ast.FuncType
	var body *ast.BlockStmt
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		ft, body = f.Type, f.Body
	default:
		var obj types.Object
		switch f := f.(type) {
		case *ast.Ident:
			obj = c.pass.TypesInfo.Uses[f]
		case *ast.SelectorExpr:
			obj = c.pass.TypesInfo.Uses[f.Sel]
		}
		fn, ok := obj.(*types.Func)
		if !ok {
			return nil, nil
		}
		d := c.decls[fn.Origin()]
		if d == nil {
			return nil, nil
		}
		ft, body = d.Type, d.Body
	}
	var params []types.Object
	for _, f := range ft.Params.List {
		if _, ok := f.Type.(*ast.Ellipsis); ok {
			break
		}
		if len(f.Names) == 0 {
			params = append(params, nil)
		}
		for _, id := range f.Names {
			params = append(params, c.pass.TypesInfo.Defs[id])
		}
	}
	return body, params
}

// reportsOn reports whether body sends on or closes the channel p.
func (c *checker) reportsOn(body *ast.BlockStmt, p types.Object) bool {
	if p == nil {
		return false
	}
	info := c.pass.TypesInfo
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == p
	}
	return find(body, nil, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			return is(n.Chan)
		case *ast.CallExpr:
			return c.isBuiltin(n, "close") && len(n.Args) == 1 && is(n.Args[0])
		}
		return false
	})
}

// paramType returns the type of the parameter that receives the i-th
// argument of a call of sig, if known.
func paramType(sig *types.Signature, i int, ellipsis bool) types.Type {
	if sig == nil {
		return nil
	}
	n := sig.Params().Len()
	if sig.Variadic() && i >= n-1 {
		if ellipsis {
			return nil
		}
		if s, ok := sig.Params().At(n - 1).Type().Underlying().(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	if i < n {
		return sig.Params().At(i).Type()
	}
	return nil
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
