package syncfacts

import (
	"go/token"
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/spgo/spgo/analyzer/internal/typesx"
)

// builder computes the summaries of one package's functions.
type builder struct {
	pass *analysis.Pass
	sums map[*ssa.Function]*Summary
	busy map[*ssa.Function]bool // being summarised: a recursive call adds nothing
	res  *Result
}

// summary returns fn's summary, computing it (and its callees') first.
func (b *builder) summary(fn *ssa.Function) *Summary {
	if s, ok := b.sums[fn]; ok {
		return s
	}
	if b.busy[fn] {
		return &Summary{}
	}
	b.busy[fn] = true
	s := &Summary{}
	recv := receiverOf(fn)
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			b.instr(s, in, recv)
		}
	}
	delete(b.busy, fn)
	b.sums[fn] = s
	return s
}

// receiverOf returns the type of the receiver of the method fn is, or
// that an anonymous function's enclosing method has (its closures reach
// the receiver through free variables); nil for a plain function.
func receiverOf(fn *ssa.Function) types.Type {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return nil
	}
	return fn.Params[0].Type()
}

// instr adds one instruction's operations to s.
func (b *builder) instr(s *Summary, in ssa.Instruction, recv types.Type) {
	switch in := in.(type) {
	case *ssa.Send:
		s.add(ChanSend, fieldPath(in.Chan, recv))
		s.Sent = union(s.Sent, []string{elemOf(in.Chan.Type())})
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			s.add(ChanRecv, fieldPath(in.X, recv))
		}
	case *ssa.Select:
		if !in.Blocking {
			return // a poll: it waits for nothing
		}
		for _, st := range in.States {
			if st.Dir == types.SendOnly {
				s.add(ChanSend, fieldPath(st.Chan, recv))
				s.Sent = union(s.Sent, []string{elemOf(st.Chan.Type())})
			} else {
				s.add(ChanRecv, fieldPath(st.Chan, recv))
			}
		}
	case *ssa.Call:
		b.call(s, in.Common(), recv)
	case *ssa.Defer:
		b.call(s, in.Common(), recv)
	}
}

// call adds the operations of one call (not of a go statement: the
// goroutine runs beside the function, not in it).
func (b *builder) call(s *Summary, c *ssa.CallCommon, recv types.Type) {
	if c.IsInvoke() {
		return // an interface method: unknown
	}
	switch v := c.Value.(type) {
	case *ssa.Builtin:
		if v.Name() == "close" && len(c.Args) == 1 {
			s.add(ChanClose, fieldPath(c.Args[0], recv))
			s.Sent = union(s.Sent, []string{elemOf(c.Args[0].Type())})
		}
		return
	case *ssa.Function:
		b.callFunc(s, v, c.Args, recv)
		return
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			s.merge(b.summary(fn), "")
		}
		return
	}
	if isNamed(c.Value.Type(), "context", "CancelFunc") {
		s.add(Cancel, fieldPath(c.Value, recv))
	}
}

// callFunc adds the operations of a static call of fn with args.
func (b *builder) callFunc(s *Summary, fn *ssa.Function, args []ssa.Value, recv types.Type) {
	obj, _ := fn.Object().(*types.Func)
	first := "-"
	if len(args) > 0 {
		first = fieldPath(args[0], recv)
	}
	if obj != nil {
		if ops := Primitive(obj); ops != 0 {
			s.add(ops, first)
			return
		}
		if obj.Pkg() != nil && obj.Pkg() != b.pass.Pkg {
			if cs := b.res.funcs[obj.Origin()]; cs != nil {
				s.merge(cs, methodPrefix(obj, first))
			}
			return
		}
	}
	if fn.Pkg != nil && fn.Pkg.Pkg != b.pass.Pkg {
		return // a wrapper or instance of another package's function
	}
	target := fn
	if o := fn.Origin(); o != nil {
		target = o
	}
	pre := "-"
	if obj != nil {
		pre = methodPrefix(obj, first)
	}
	s.merge(b.summary(target), pre)
}

// methodPrefix returns the receiver path a callee's field operations are
// made through: first (the path of its receiver argument) for a method,
// "-" (none) for a function or a receiver that is not ours.
func methodPrefix(obj *types.Func, first string) string {
	if obj.Signature().Recv() == nil || first == "-" {
		return "-"
	}
	return first
}

// Primitive returns the operations of a function of the standard library
// or x/sync that summaries are made of, 0 for any other.
func Primitive(fn *types.Func) Ops {
	if fn.Pkg() == nil {
		return 0
	}
	pkg, name := fn.Pkg().Path(), fn.Name()
	recv := ""
	if n := typesx.RecvNamed(fn); n != nil {
		recv = n.Obj().Name()
	}
	switch pkg + "." + recv + "." + name {
	case "sync.WaitGroup.Add", "sync.WaitGroup.Go",
		"golang.org/x/sync/errgroup.Group.Go", "golang.org/x/sync/errgroup.Group.TryGo":
		return GroupAdd
	case "sync.WaitGroup.Done":
		return GroupDone
	case "sync.WaitGroup.Wait", "golang.org/x/sync/errgroup.Group.Wait":
		return GroupWait
	case "golang.org/x/sync/semaphore.Weighted.Acquire", "golang.org/x/sync/semaphore.Weighted.TryAcquire":
		return SemAcquire
	case "golang.org/x/sync/semaphore.Weighted.Release":
		return SemRelease
	case "sync.Cond.Wait":
		return CondWait
	case "sync.Cond.Signal", "sync.Cond.Broadcast":
		return CondSignal
	case "sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock":
		return Lock
	case "time..Sleep":
		return Sleep
	case "io.PipeWriter.Close", "io.PipeWriter.CloseWithError":
		return PipeClose
	}
	if path.Base(pkg) == "atomic" && !strings.HasPrefix(name, "Load") {
		return AtomicWrite
	}
	return 0
}

// fieldPath returns the dotted path of receiver fields v is reached by
// ("" for the receiver itself), or "-" when v is not reached from the
// receiver.
func fieldPath(v ssa.Value, recv types.Type) string {
	if recv == nil {
		return "-"
	}
	var parts []string
	for range 16 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			parts = append(parts, fieldName(x.X.Type(), x.Field))
			v = x.X
			continue
		case *ssa.Field:
			parts = append(parts, fieldName(x.X.Type(), x.Field))
			v = x.X
			continue
		case *ssa.UnOp:
			if x.Op == token.MUL {
				v = x.X
				continue
			}
		case *ssa.Parameter:
			fn := x.Parent()
			if fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == x {
				return joinRev(parts)
			}
		case *ssa.FreeVar:
			if types.Identical(x.Type(), recv) || types.Identical(x.Type(), types.NewPointer(recv)) {
				return joinRev(parts)
			}
		}
		return "-"
	}
	return "-"
}

// joinRev joins the field names collected innermost first.
func joinRev(parts []string) string {
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
		if i > 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// fieldName names field i of the struct t is or points to.
func fieldName(t types.Type, i int) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok && i < st.NumFields() {
		return st.Field(i).Name()
	}
	return "?"
}

// elemOf returns the element type of a channel type, as a string with
// full package paths.
func elemOf(t types.Type) string {
	if ch, ok := t.Underlying().(*types.Chan); ok {
		return types.TypeString(ch.Elem(), nil)
	}
	return "?"
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}
