package sites

import "sites/dep"

// mk's literal escapes in mk's own body (it is returned); its copies
// inlined into useKeep and useDrop are reported at their call sites.
func mk() *T { return &T{1, 2} }

func useKeep() *T { return mk() }

func useDrop() int { return mk().a }

// dep.Len's make does not escape in Len's own body; the copy inlined here
// with a constant size of 1 MiB is too large for the stack.
func useBig() int { return dep.Len(1 << 20) }

func useSmall() int { return dep.Len(16) }

func useDep() *dep.P { return dep.NewP() }

// words inlines dep.Words; useNested inlines words and so dep.Words: the
// copy of Words's make has a chain of two calls.
func words(n int) int { return dep.Words(n) }

func useNested() int { return words(1 << 20) }
