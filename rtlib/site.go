package rtlib

import "sync"

// Site identifies a static instrumented operation: the base a file got
// from Register plus the operation's index in the file's table.
type Site int32

// Op is the kind of an instrumented operation.
type Op uint8

// The operations a site can be.
const (
	OpInvalid  Op = iota
	OpRoot        // main.main, TestXxx, BenchmarkXxx, FuzzXxx, ExampleXxx, TestMain
	OpFunc        // a function that spawns: its own sync scope
	OpGo          // a go statement
	OpWGGo        // sync.WaitGroup.Go
	OpGroupGo     // errgroup.Group.Go or TryGo
	OpAdd         // sync.WaitGroup.Add
	OpWait        // sync.WaitGroup.Wait or errgroup.Group.Wait
	OpSend        // ch <- v
	OpRecv        // <-ch, range over a channel
	OpSelect      // a select statement without default
	OpLock        // Mutex.Lock, RWMutex.Lock or RLock
	OpCondWait    // sync.Cond.Wait
	OpSleep       // time.Sleep
	OpCall        // a library call that blocks (testing.T.Run and friends)
	OpMake        // make([]T, n), make(map), make(chan)
	OpNew         // new(T), &T{}
	OpLit         // a slice or map composite literal
	OpAppend      // append growth
	OpString      // string concatenation or conversion
	OpConv        // []byte(s), []rune(s)
	OpVar         // a variable moved to the heap
	OpPoolGet     // sync.Pool.Get
)

var opNames = [...]string{
	OpInvalid: "invalid", OpRoot: "root", OpFunc: "func", OpGo: "go",
	OpWGGo: "wg.Go", OpGroupGo: "errgroup.Go", OpAdd: "wg.Add",
	OpWait: "wait", OpSend: "send", OpRecv: "recv", OpSelect: "select",
	OpLock: "lock", OpCondWait: "cond.Wait", OpSleep: "sleep",
	OpCall: "call", OpMake: "make", OpNew: "new", OpLit: "literal",
	OpAppend: "append", OpString: "string", OpConv: "conversion",
	OpVar: "var", OpPoolGet: "pool.Get",
}

// String returns the name of op.
func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "invalid"
}

// IsAlloc reports whether op is an allocation site.
func (op Op) IsAlloc() bool { return op >= OpMake && op <= OpVar }

// SiteInfo describes one site of a file's table.
type SiteInfo struct {
	Line, Col int32
	// Func is the enclosing function as written, qualified by the
	// package name: "main.F", "main.T.M", "main.(*T).M"; a function
	// literal is named by its enclosing function and its position,
	// "main.F.func@12:7"; a generic function once, without type
	// arguments.
	Func string
	Op   Op
	// Type is an allocation site's static type as Go source writes it,
	// named types qualified by their package's name ("[]byte",
	// "*main.Node"): the value its expression yields, or a moved
	// variable's type. "" for other sites (typeOf names them).
	Type string
	// Closure, ArgsClosure and Wrapper are the sizes of the closures a
	// go statement allocates, as the rewriter lays them out (before the
	// runtime's rounding): the original statement's closure of a spawned
	// literal's free variables, which lives until the goroutine ends; its
	// closure of the function value and the arguments, dead once the
	// goroutine has started the call; and the instrumented statement's,
	// which holds rtlib's task besides. For WaitGroup.Go and errgroup's
	// Go, Closure and Wrapper are the closure of the function literal
	// given to them. 0 for none and for other sites.
	Closure, ArgsClosure, Wrapper int32
}

// SiteRecord is a registered site with its file and package.
type SiteRecord struct {
	Pkg, File string
	SiteInfo
}

var sites struct {
	mu   sync.Mutex
	all  []SiteRecord // index = Site; entry 0 is unused
	dirs []string     // the directories of the files, sorted (prof_paths.go)
}

// Register records the site table of one instrumented file and returns
// its base: the file's k-th site is base+k (k from 0). It is called from
// package variable initialisers.
func Register(pkg, file string, table []SiteInfo) Site {
	sites.mu.Lock()
	defer sites.mu.Unlock()
	if len(sites.all) == 0 {
		sites.all = append(sites.all, SiteRecord{})
	}
	base := Site(len(sites.all))
	addDir(file)
	for _, s := range table {
		sites.all = append(sites.all, SiteRecord{Pkg: pkg, File: file, SiteInfo: s})
	}
	return base
}

// Lookup returns the record of site s, and false if s was never
// registered.
func Lookup(s Site) (SiteRecord, bool) {
	sites.mu.Lock()
	defer sites.mu.Unlock()
	if s <= 0 || int(s) >= len(sites.all) {
		return SiteRecord{}, false
	}
	return sites.all[s], true
}
