package sites_test

import (
	"testing"

	"sites/dep"
)

var keep *dep.P

func TestExternal(t *testing.T) {
	keep = dep.NewP()
	b := make([]byte, 10)
	_ = b
}
