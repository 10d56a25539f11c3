//go:build !race

package rtlib

// stackGuard is how close to its stack's end a goroutine's frames may
// come before the runtime grows the stack (runtime.stackGuard on Linux
// and macOS, where getg reads stacks; acct_stack.go).
const stackGuard = 928

// stackPainting: stacks larger than their model are painted (see
// acct_stack.go).
const stackPainting = true
