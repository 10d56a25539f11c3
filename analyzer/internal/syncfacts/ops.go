package syncfacts

import "strings"

// Ops is a set of synchronising operations.
type Ops uint32

// The operations a summary records.
const (
	ChanSend    Ops = 1 << iota // a send on a channel (or a blocking select's send case)
	ChanRecv                    // a receive, a range over a channel, a blocking select's receive case
	ChanClose                   // close(ch)
	GroupAdd                    // WaitGroup Add or Go, errgroup Go or TryGo
	GroupDone                   // WaitGroup Done
	GroupWait                   // WaitGroup or errgroup Wait
	SemAcquire                  // semaphore.Weighted Acquire
	SemRelease                  // semaphore.Weighted Release
	CondWait                    // sync.Cond Wait
	CondSignal                  // sync.Cond Signal or Broadcast
	Lock                        // sync.Mutex or RWMutex Lock or RLock
	Sleep                       // time.Sleep
	PipeClose                   // io.PipeWriter Close or CloseWithError
	Cancel                      // a call of a context.CancelFunc
	AtomicWrite                 // a write through an atomic package
)

// Signal holds the operations that tell another goroutine something
// happened: a waiter can return because of them.
const Signal = ChanSend | ChanClose | GroupDone | SemRelease | CondSignal | PipeClose

// Wait holds the operations that wait for another goroutine.
const Wait = ChanRecv | GroupWait | SemAcquire | CondWait

// Blocking holds the operations that may block until another goroutine
// acts, or for a while: what can throttle a loop.
const Blocking = ChanSend | ChanRecv | GroupWait | SemAcquire | CondWait | Sleep

// Deep holds the operations a summary takes from its callees: what can
// tell a waiter something or make the caller wait. Locks, atomic writes,
// cancels and Cond signals stay in the Own of the function that makes
// them: a lock deep in a callee says nothing of the caller, and keeping
// them out keeps the facts go vet writes for every package small.
const Deep = ^(Lock | AtomicWrite | Cancel | CondSignal)

// String lists the operations, for tests and debugging.
func (o Ops) String() string {
	names := [...]string{
		"send", "recv", "close", "add", "done", "wait", "acquire", "release",
		"condwait", "signal", "lock", "sleep", "pipeclose", "cancel", "atomic",
	}
	var ws []string
	for i, n := range names {
		if o&(1<<i) != 0 {
			ws = append(ws, n)
		}
	}
	return strings.Join(ws, "|")
}
