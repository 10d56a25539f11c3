package sim

import (
	"fmt"
	"strings"
)

// Policy is a scheduling policy.
type Policy uint8

// The policies, in the order Policies returns them.
const (
	// DF is p-processor depth-first (Blelloch, Gibbons, Matias): among the
	// ready strands, start the one earliest in the 1-processor child-first
	// order.
	DF Policy = iota
	// BF is breadth-first: one global FIFO of ready strands, in the order
	// they became ready (at a spawn, the child before the continuation).
	BF
	// WS is work stealing (Cilk): per-processor deques, work-first spawns,
	// steals of the oldest entry from a seeded random victim.
	WS
	// Go is like the Go runtime: runnext slot, local FIFO queues, a global
	// queue, stealing half, and preemption after a time slice.
	Go
)

var policyNames = [...]string{DF: "df", BF: "bf", WS: "ws", Go: "go"}

// Policies returns every policy.
func Policies() []Policy { return []Policy{DF, BF, WS, Go} }

// String returns the policy's short name: "df", "bf", "ws" or "go".
func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// Seeded reports whether the policy draws random numbers, so that
// Simulate runs it once per seed.
func (p Policy) Seeded() bool { return p == WS || p == Go }

// ParsePolicy returns the policy named s (as String writes it, any case).
func ParsePolicy(s string) (Policy, error) {
	for _, p := range Policies() {
		if strings.EqualFold(s, p.String()) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("sim: unknown policy %q (want df, bf, ws or go)", s)
}

// scheduler is a policy's state during one simulation. The engine calls
// complete when a processor's strand ends, preempt when the time slice
// takes it off, and pick for each idle processor, in processor order, after
// all the completions of an instant.
type scheduler interface {
	// init receives the strands that are ready at time 0, by ID.
	init(roots []int32)
	// complete: strand u ended on processor w and made ready the strands
	// in ready (policy order: child, same task, others; by ID).
	complete(w int, u int32, ready []readyItem)
	// preempt: strand u was taken off processor w unfinished.
	preempt(w int, u int32)
	// pick returns the strand idle processor w starts at time t, or -1.
	pick(w int, t int64) int32
	// hasWork reports whether pick may return a strand for some processor.
	hasWork() bool
	// sliceStart returns when processor w's time slice began (Go only).
	sliceStart(w int) int64
}

// newScheduler returns the state of policy pol for p processors.
func newScheduler(pol Policy, pr *prep, p int, seed uint64) scheduler {
	switch pol {
	case DF:
		return &dfSched{rank: pr.dfRank, order: pr.dfOrder}
	case BF:
		return &bfSched{}
	case WS:
		return newWS(p, seed)
	default:
		return newGoSched(p, seed)
	}
}
