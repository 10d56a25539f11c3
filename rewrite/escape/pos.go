package escape

import (
	"go/ast"
	"go/token"
)

// Pos returns the position at which the compiler reports a decision about
// the value of e: the position its parser (cmd/compile/internal/syntax)
// gives the expression, which for most operations is the operator, not
// the start of the expression:
//
//	x.f, x.(T)       the '.'
//	x[i], x[i:j]     the '['
//	f(args), T(x)    the '('
//	T{...}, {...}    the '{'
//	a + b, &x, -x    the operator
//	*p               the '*'
//	(x)              the '('
//	func() {...}     'func'
//	k: v             the ':'
//	others           the start (identifiers, literals)
//
// go/ast does not record the '.' of a selector or type assertion: Pos
// returns the byte before the selected name or the '(', which is the '.'
// unless a line break or comment separates them.
//
// Pass the allocating expression itself (the CallExpr of make, new,
// append or a variadic call, the UnaryExpr of &T{...}, the CompositeLit,
// the BinaryExpr, the FuncLit), except for two kinds of site whose
// position is another expression's: an explicit conversion T(x) is
// reported at Pos(x), and an implicit conversion of e to an interface at
// Pos(e). A variable moved to the heap is reported at the identifier that
// declares it.
func Pos(e ast.Expr) token.Pos {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Pos() - 1
	case *ast.TypeAssertExpr:
		return e.Lparen - 1
	case *ast.IndexExpr:
		return e.Lbrack
	case *ast.IndexListExpr:
		return e.Lbrack
	case *ast.SliceExpr:
		return e.Lbrack
	case *ast.CallExpr:
		return e.Lparen
	case *ast.CompositeLit:
		return e.Lbrace
	case *ast.BinaryExpr:
		return e.OpPos
	case *ast.UnaryExpr:
		return e.OpPos
	case *ast.StarExpr:
		return e.Star
	case *ast.ParenExpr:
		return e.Lparen
	case *ast.FuncLit:
		return e.Type.Func
	case *ast.KeyValueExpr:
		return e.Colon
	}
	return e.Pos()
}
