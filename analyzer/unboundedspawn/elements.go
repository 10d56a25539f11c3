package unboundedspawn

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// quietCollection reports whether the slice or map e, of a size the code
// does not fix, is still no per-item fan-out: what it holds says its size
// is not the data's (connections, callbacks, code, a configured topology)
// or its keys have at most 256 values.
func (c *checker) quietCollection(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	var elem, key types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Map:
		if smallKey(u.Key()) {
			return true
		}
		elem, key = u.Elem(), u.Key()
	default:
		return false
	}
	if connLike(elem) || isFunc(elem) || carriesCode(elem) || (key != nil && connLike(key)) {
		return true
	}
	return c.topology(e, elem, key)
}

// smallKey reports whether a map keyed by t has at most 256 keys: t is a
// bool, a byte (uint8) or an int8.
func smallKey(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.Bool, types.Uint8, types.Int8:
		return true
	}
	return false
}

// isFunc reports whether t is a function type, or a pointer to one: a
// collection of them is a registry of callbacks (hooks, listeners), not
// data.
func isFunc(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// carriesCode reports whether t is a struct, or a pointer to one, with a
// function field named Run: an analyzer, a command, a plugin. A collection
// of them is a registry of code, like a collection of functions.
func carriesCode(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Name() == "Run" && isFunc(f.Type()) {
			return true
		}
	}
	return false
}

// connLike reports whether t is a network connection: its named type (or
// what it points to) has a word conn or connection in its name (Conn,
// ClientConn, conn), or it has a RemoteAddr method as net.Conn does, or it
// is a struct with a field that is a connection so (a pooled file or
// session holding its connection).
func connLike(t types.Type) bool {
	return connType(t, true)
}

func connType(t types.Type, fields bool) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		for _, w := range words(n.Obj().Name()) {
			switch w {
			case "conn", "conns", "connection", "connections":
				return true
			}
		}
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "RemoteAddr")
	if _, ok := obj.(*types.Func); ok {
		return true
	}
	if st, ok := t.Underlying().(*types.Struct); ok && fields {
		for i := range st.NumFields() {
			if connType(st.Field(i).Type(), false) {
				return true
			}
		}
	}
	return false
}

// topologyWords are the words that name the parts of a deployment: a
// collection named so, or holding types named so, is a fan-out to a
// configured topology whose size is set by deployment, not by data.
var topologyWords = map[string]bool{
	"peer": true, "server": true, "disk": true, "drive": true, "pool": true,
	"set": true, "locker": true, "host": true, "client": true,
	"endpoint": true, "upstream": true, "remote": true, "backend": true,
	"shard": true, "replica": true, "member": true, "site": true,
	"zone": true, "region": true, "datacenter": true,
}

// topologyWord reports whether w, singular or plural, is a topology word.
func topologyWord(w string) bool {
	return topologyWords[w] || (strings.HasSuffix(w, "s") && topologyWords[w[:len(w)-1]])
}

// topology reports whether the collection e, with elements (and keys) of
// the given types, is a configured topology: the head word (see head) of
// its name (see collNames) or of its element or key type's name is a
// topology word.
func (c *checker) topology(e ast.Expr, ts ...types.Type) bool {
	names := collNames(e, 0)
	for _, t := range ts {
		if t != nil {
			names = append(names, typeName(t))
		}
	}
	for _, n := range names {
		if topologyWord(head(n)) {
			return true
		}
	}
	return false
}

// head returns the word of a name that says what it is: its last word
// (peerClients is clients, NetLocker is locker, PeerMessage is message),
// before a by (clientsByID is clients) and but for last words that name
// the container (objSetMap is set, peerList is peer) or a reference to
// what the word before names (poolIndices is pool, hostNames is host).
func head(name string) string {
	ws := words(name)
	for i, w := range ws {
		if w == "by" && i > 0 {
			ws = ws[:i]
			break
		}
	}
	for len(ws) > 1 {
		switch ws[len(ws)-1] {
		case "map", "list", "slice", "array", "table",
			"index", "indices", "indexes", "idx", "idxs", "id", "ids",
			"key", "keys", "name", "names", "addr", "addrs", "address",
			"addresses", "url", "urls":
			ws = ws[:len(ws)-1]
			continue
		}
		break
	}
	if len(ws) == 0 {
		return ""
	}
	return ws[len(ws)-1]
}

// typeName returns the name of the named type t, or of what t points to.
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// collNames returns the names of the collection e: of the variable or
// field (s.peerClients is peerClients), or for a call those of the
// function it calls (er.getDisks() is getDisks) and of the collections
// whose len it is given (r.Perm(len(disks)) is Perm and disks). An
// element of a collection (byHost[h]) has no name of its own.
func collNames(e ast.Expr, depth int) []string {
	if depth > 4 {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return []string{e.Name}
	case *ast.SelectorExpr:
		return []string{e.Sel.Name}
	case *ast.SliceExpr:
		return collNames(e.X, depth+1)
	case *ast.StarExpr:
		return collNames(e.X, depth+1)
	case *ast.UnaryExpr:
		return collNames(e.X, depth+1)
	case *ast.CallExpr:
		out := collNames(e.Fun, depth+1)
		for _, a := range e.Args {
			if l, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(l.Args) == 1 {
				if id, ok := ast.Unparen(l.Fun).(*ast.Ident); ok && id.Name == "len" {
					out = append(out, collNames(l.Args[0], depth+1)...)
				}
			}
		}
		return out
	}
	return nil
}

// appendBounded reports whether the local slice variable v only ever holds
// a value of a size fixed in the code (its declaration without a value, a
// composite literal, nil, make with a count) grown by appends of single
// elements (v = append(v, x), no ...) that no loop repeats but counting
// loops with constant bounds (for i := 0; i < 17; i++, range 17, range
// over an array): so its length has a bound written in the code. Its
// address is never taken.
func (c *checker) appendBounded(v *types.Var) bool {
	b, ok := c.appendBound[v]
	if !ok {
		b = c.appendOnlyConst(v)
		c.appendBound[v] = b
	}
	return b
}

func (c *checker) appendOnlyConst(v *types.Var) bool {
	if v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
		return false
	}
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	info := c.pass.TypesInfo
	declared, appended := false, false
	for cur := range c.ins.Root().Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Pos() < v.Pos() {
			continue
		}
		if info.Defs[id] == v {
			declared = true
			switch k, i := cur.ParentEdge(); k {
			case edge.ValueSpec_Names:
				vs := cur.Parent().Node().(*ast.ValueSpec)
				if len(vs.Values) != 0 && (len(vs.Values) != len(vs.Names) || !c.fixedValue(vs.Values[i])) {
					return false
				}
			case edge.AssignStmt_Lhs:
				as := cur.Parent().Node().(*ast.AssignStmt)
				if len(as.Lhs) != len(as.Rhs) || !c.fixedValue(as.Rhs[i]) {
					return false
				}
			default:
				return false
			}
			continue
		}
		if info.Uses[id] != v {
			continue
		}
		switch k, _ := cur.ParentEdge(); k {
		case edge.AssignStmt_Lhs:
			as := cur.Parent().Node().(*ast.AssignStmt)
			if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return false
			}
			if c.fixedValue(as.Rhs[0]) {
				continue
			}
			if as.Tok != token.ASSIGN || !c.selfAppend(as.Rhs[0], v) || !c.constLoopsOnly(cur.Parent(), v, 0) {
				return false
			}
			appended = true
		case edge.UnaryExpr_X:
			if cur.Parent().Node().(*ast.UnaryExpr).Op == token.AND {
				return false
			}
		case edge.RangeStmt_Key, edge.RangeStmt_Value, edge.IncDecStmt_X:
			return false
		}
	}
	return declared && appended
}

// fixedValue reports whether e is nil or a collection of a size fixed in
// the code (see fixedSize).
func (c *checker) fixedValue(e ast.Expr) bool {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && id.Name == "nil" {
		if _, isNil := c.pass.TypesInfo.Uses[id].(*types.Nil); isNil {
			return true
		}
	}
	return c.fixedSize(e, 1)
}

// selfAppend reports whether e is append(v, x...) with single elements,
// not append(v, xs...).
func (c *checker) selfAppend(e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || !c.isBuiltin(call, "append") || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	return ok && c.pass.TypesInfo.Uses[id] == v
}

// constLoopsOnly reports whether every loop around cur within the scope of
// v is a counting loop with constant bounds, and so is every loop around
// each call of a function literal around cur: a local closure variable
// (add := func(d time.Duration) { ts = append(ts, ...) }) only ever
// called, never handed on, runs as often as its calls say.
func (c *checker) constLoopsOnly(cur inspector.Cursor, v *types.Var, depth int) bool {
	info := c.pass.TypesInfo
	for a := range cur.Enclosing() {
		n := a.Node()
		if n.Pos() <= v.Pos() && v.Pos() < n.End() {
			return true // the scope of v: each run of it starts afresh
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return depth < 3 && c.closureCallsConst(n, v, depth)
		case *ast.ForStmt:
			if !constFor(n, info) {
				return false
			}
		case *ast.RangeStmt:
			if !constRange(n, info) {
				return false
			}
		}
	}
	return false
}

// closureCallsConst reports whether lit is the one literal a local
// variable is set to, and that variable is only called, each call under
// constant loops only (see constLoopsOnly).
func (c *checker) closureCallsConst(lit *ast.FuncLit, v *types.Var, depth int) bool {
	var fv *types.Var
	for w, l := range c.lits {
		if l == lit && !w.IsField() {
			fv = w
		}
	}
	if fv == nil {
		return false
	}
	calls := 0
	for cur := range c.ins.Root().Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] != fv {
			continue
		}
		if k, _ := cur.ParentEdge(); k != edge.CallExpr_Fun || !c.constLoopsOnly(cur.Parent(), v, depth+1) {
			return false // handed on, or called in a loop of unknown length
		}
		calls++
	}
	return calls > 0
}

// constFor reports whether f is for i := c1; i < c2; i++ (or <=), or the
// reverse, with constant c1 and c2.
func constFor(f *ast.ForStmt, info *types.Info) bool {
	isConst := func(e ast.Expr) bool { return info.Types[e].Value != nil }
	cond, ok := ast.Unparen(f.Cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	post, ok := f.Post.(*ast.IncDecStmt)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(post.X).(*ast.Ident)
	if !ok {
		return false
	}
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 || !sameIdent(init.Lhs[0], id) || !isConst(init.Rhs[0]) {
		return false
	}
	switch cond.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	return (sameIdent(cond.X, id) && isConst(cond.Y)) || (sameIdent(cond.Y, id) && isConst(cond.X))
}

// constRange reports whether r ranges over a constant integer or an array.
func constRange(r *ast.RangeStmt, info *types.Info) bool {
	if info.Types[r.X].Value != nil {
		return true
	}
	t := info.TypeOf(r.X)
	if t == nil {
		return false
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	_, ok := u.(*types.Array)
	return ok
}
