package fix

import (
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"
)

func has(it Item) error {
	_ = runtime.NumCPU()
	switch {
	case it.Name != "":
		var h errgroup.Group // a group in a case clause
		for _, s := range strings.Fields(it.Name) {
			h.Go(func() error { process(Item{Name: s}); return nil }) // want `one goroutine per element of strings.Fields\(it.Name\)`
		}
		return h.Wait()
	}
	return nil
}
