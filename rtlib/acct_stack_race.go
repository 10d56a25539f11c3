//go:build race

package rtlib

// stackGuard is the runtime's stack guard under the race detector
// (stackGuardMultiplier 2); see acct_stack.go.
const stackGuard = 928 * 2

// stackPainting is false under the race detector, whose pointer checks
// would take the paint's writes below the stack pointer for misuse: a
// goroutine's model is then its stack's size as the run saw it.
const stackPainting = false
