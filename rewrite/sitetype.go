package rewrite

import (
	"go/token"
	"go/types"

	"github.com/dave/dst"
)

// typedSite is site for an allocation site whose allocated value has
// type t: the row records t's name (siteTypeName) for the by-type reports.
func (r *fileRewriter) typedSite(p token.Pos, op string, t types.Type) dst.Expr {
	e := r.site(p, op)
	r.sites[len(r.sites)-1].Type = siteTypeName(t)
	return e
}

// siteTypeName is t as a user reads it in Go source, each named type
// qualified by its package's name, not its path, as fmt's %T prints it:
// "[]byte", "map[string]int", "*main.Node", "[]T" for a type parameter
// T. "" for nil.
func siteTypeName(t types.Type) string {
	if t == nil {
		return ""
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
