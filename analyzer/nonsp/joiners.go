package nonsp

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/spgo/spgo/analyzer/internal/syncfacts"
	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// model is a well-known library type whose serving methods are joined by
// a method that makes them return: the spawner that calls a joiner (or
// refers to it, as in t.Cleanup(srv.Close)) has a way back.
type model struct {
	pkg, typ string
	serves   []string
	joiners  []string
}

// models returns the joiners of libraries spvet does not read the code
// of (a function, not a variable: nothing of the package is mutable).
func models() []model {
	return []model{
		{"net/http", "Server", []string{"Serve", "ServeTLS", "ListenAndServe", "ListenAndServeTLS"}, []string{"Close", "Shutdown"}},
		{"google.golang.org/grpc", "Server", []string{"Serve"}, []string{"Stop", "GracefulStop"}},
	}
}

// Operations of a goroutine's method on receiver fields that another
// method of its type can wait for, and operations of that method that
// wait.
const (
	fieldSignal = syncfacts.GroupDone | syncfacts.ChanSend | syncfacts.ChanClose
	token       = syncfacts.ChanSend | syncfacts.ChanRecv
	fieldWait   = syncfacts.GroupWait | syncfacts.ChanRecv
)

// pairedCall reports whether the goroutine started by call is joined by
// another method of the type of the method it runs (see paired): the
// method is the go statement's own call, or the last call of the literal
// it runs (go func() { _ = s.Serve(l) }()).
func (j *joinCheck) pairedCall(call *ast.CallExpr) bool {
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		if call = lastCall(lit.Body); call == nil {
			return false
		}
	}
	fn := typeutil.StaticCallee(j.pass.TypesInfo, call)
	return fn != nil && j.paired(fn)
}

// paired reports whether fn, run as a goroutine, is joined by another
// method of its receiver's type: a model's joiner the package refers to;
// or a method the package refers to (or, for its own type, exports) that
// waits (group Wait, receive) on a receiver field that fn signals through
// (Done, send, close) — a Stop that cancels and then waits for what Serve
// signals last. An Add in fn counts the goroutines fn starts, not fn.
func (j *joinCheck) paired(fn *types.Func) bool {
	named := typesx.RecvNamed(fn)
	if named == nil {
		return false
	}
	if j.modelJoined(named, fn.Name()) {
		return true
	}
	return j.fieldPaired(fn, named, fieldSignal, fieldWait)
}

// fieldPaired reports whether fn makes one of ops on a receiver field that
// another method of its type (named), one that is called (see callable),
// makes one of others on. A field fn both sends on and receives from is a
// token it takes and gives back (a semaphore), no signal.
func (j *joinCheck) fieldPaired(fn *types.Func, named *types.Named, ops, others syncfacts.Ops) bool {
	var mine []string
	for _, f := range j.sums.Func(fn).FieldList() {
		if f.Ops&ops != 0 && f.Ops&token != token {
			mine = append(mine, f.Path)
		}
	}
	if len(mine) == 0 {
		return false
	}
	for m := range named.Origin().Methods() {
		if m == fn.Origin() || !j.callable(m) {
			continue
		}
		for _, p := range j.sums.Func(m).FieldsWith(others) {
			if slices.Contains(mine, p) {
				return true
			}
		}
	}
	return false
}

// callable reports whether the joiner m is called: the package refers to
// it, or it is an exported method of the package's own type, there for
// its users to call.
func (j *joinCheck) callable(m *types.Func) bool {
	return j.used[m] || (m.Pkg() == j.pass.Pkg && m.Exported())
}

// modelJoined reports whether method name of named is a model's serving
// method with a joiner the package refers to.
func (j *joinCheck) modelJoined(named *types.Named, name string) bool {
	obj := named.Obj()
	if obj.Pkg() == nil {
		return false
	}
	for _, m := range models() {
		if obj.Pkg().Path() != m.pkg || obj.Name() != m.typ || !slices.Contains(m.serves, name) {
			continue
		}
		for jm := range named.Origin().Methods() {
			if slices.Contains(m.joiners, jm.Name()) && j.used[jm] {
				return true
			}
		}
	}
	return false
}

// closesChildPipe reports whether call closes a child process's pipe
// (an io.WriteCloser or io.ReadCloser, what os/exec's Cmd.StdinPipe and
// StdoutPipe return) in a package that waits for a child process
// (Cmd.Wait, Run, Output or CombinedOutput): the parent's Wait joins the
// goroutine that feeds or drains it.
func (j *joinCheck) closesChildPipe(call *ast.CallExpr, fn *types.Func) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn.Name() != "Close" {
		return false
	}
	t := j.pass.TypesInfo.TypeOf(sel.X)
	if !typesx.IsNamed(t, "io", "WriteCloser") && !typesx.IsNamed(t, "io", "ReadCloser") {
		return false
	}
	for used := range j.used {
		if n := typesx.RecvNamed(used); n != nil && typesx.IsNamed(n, "os/exec", "Cmd") {
			switch used.Name() {
			case "Wait", "Run", "Output", "CombinedOutput":
				return true
			}
		}
	}
	return false
}
