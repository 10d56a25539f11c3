// Package unboundedspawn defines an Analyzer that reports one goroutine
// per element of a collection of unbounded size with nothing bounding how
// many run at once: the MemoryExplosion pattern, whose peak memory grows
// with the input.
//
// # Analyzer unboundedspawn
//
// unboundedspawn: report one goroutine per element of an unbounded collection with no bound on how many run at once
//
// A finding means: the goroutines of the loop all run, or wait, at once,
// each holding its item and its own stack and allocations, so the peak is
// proportional to the size of the collection. Bound the concurrency: an
// errgroup with SetLimit(n), a semaphore (a buffered channel of tokens, or
// golang.org/x/sync/semaphore), or a fixed pool of n workers reading the
// items from a channel.
//
// Findings are meant to be precise rather than complete: every condition
// below must hold, and anything the analyzer cannot see stays quiet.
//
// 1. The spawn. A go statement, or a Go or TryGo call on a sync.WaitGroup
// or errgroup.Group, directly in the body of a loop (not in a function
// literal in it). The innermost loop around the spawn must be one of:
//
//   - for ... range x, x a slice or map, unless its size is fixed in the
//     code: a composite literal; a slice of one with a constant high bound
//     (x[:4]); make(T, n) (a count, see below) unless n involves len; a
//     variable initialised so whose length never changes (never assigned
//     again, its address never taken; a map also never written, nor passed
//     to a function other than len and delete), local or unexported; or a
//     local slice declared without a value or so, assigned only such
//     values or nil, and otherwise grown only by appends of single
//     elements (x = append(x, e), no ...) that no loop repeats but
//     counting loops with constant bounds (for i := 0; i < 17; i++,
//     range 17, range over an array) and no function literal encloses
//     (within the scope of x) but a local closure variable that is only
//     called, each call so (add := func(d time.Duration) { ts =
//     append(ts, ...) }; add(time.Second)), its address never taken: its
//     length has a bound written in the code; or an unexported
//     package-level variable that only init functions (and functions only
//     they call) change, with no initialiser or one of fixed size: a
//     registry the code fills at start-up;
//   - for ... range ch, ch a channel;
//   - for ... range seq, seq an iterator function;
//   - for i := range len(x), and for i := 0; i < len(x); i++ (or the
//     reverse, i := len(x)-1; i >= 0; i--), x as for range x;
//   - for r.Scan(), for r.Next(), or for it.Valid(); it.Next(): a cursor
//     such as bufio.Scanner, sql.Rows or a key-value iterator.
//
// Arrays, range n for an integer n and counting loops such as
// for i := 0; i < n; i++ or range runtime.NumCPU() are a fixed number of
// workers and never reported; so are for {} loops, including accept loops
// (for { c, _ := ln.Accept(); go serve(c) }), and loops stepping by more
// than one (i += chunk splits the work among a count of goroutines).
//
// A slice or map (ranged over, or whose len bounds the loop) is quiet too,
// whatever its size, when what it holds says its size is not the data's:
//
//   - its elements (or map keys) are connections: a type with a word conn
//     or connection in its name (net.Conn, ClientConn, a type conn), or
//     with a RemoteAddr method, or a struct with a field that is one (a
//     pooled file or session holding its connection). A goroutine per
//     connection is how Go servers are written, and the number of
//     connections is the server's to limit;
//   - its elements are functions or pointers to functions ([]func(),
//     []*func()): a registry of callbacks, not data; or structs (or
//     pointers to them) with a function field named Run (an analyzer, a
//     command, a plugin): a registry of code;
//   - it is a map keyed by a bool, a byte (uint8) or an int8: at most 256
//     keys (map[byte][]T grouping by the first nibble has 17);
//   - it is a fan-out to a configured topology: its size is set by
//     deployment, not data; spvet stays quiet (spbuild still measures it).
//     That is a collection whose name, or the name of its element (or map
//     key) type, has as its head word one of peer, server, disk, drive,
//     pool, set, locker, host, client, endpoint, upstream, remote,
//     backend, shard, replica, member, site, zone, region or datacenter,
//     singular or plural (s.peerClients, erasureSets, []NetLocker). The
//     words are those of the camel-case or snake_case name, whole
//     (offsets is not sets); the head is the last, before a by
//     (clientsByID) and but for last words naming the container (map,
//     list, slice, array, table: objSetMap, peerList) or a reference to
//     what the word before names (index, indices, idx, id, key, name,
//     addr, address, url, singular or plural: poolIndices, hostNames;
//     a name of that word alone, such as names, has it as head), so that
//     data named after where it comes from stays reported (peerMessages,
//     clientRequests, []PeerMessage). The name is that of the variable or
//     field, or for a call that of the function together with those of
//     the collections whose len it is given (er.getDisks(),
//     rand.Perm(len(disks))); an element of a collection (byHost[h]) has
//     none. Bucket, cluster and node are left out: they name data as
//     often (the buckets of a store, the clusters an API returns, the
//     nodes of a tree or graph).
//
// 2. Per-item data. The spawn mentions (in the function it runs, its
// arguments or a literal's body) a variable that holds the current item:
// the loop's key or value, the counter of a len loop, the cursor of a
// Scan or Next loop, or a variable declared in the loop and derived from
// those (assigned from an expression mentioning one, filled through &v by
// a call that mentions one, bound by a range or type switch over one).
// And the child does work that allocates or holds memory: it runs a named
// function or function value (which may do anything), or it is a literal
// that allocates (composite literal, make, new, append, string
// concatenation, conversion to string or slice), sends on a channel, or
// calls any function but cheap builtins (len, copy, ...), group methods
// and package sync and sync/atomic. A value of no size (struct{}{}) is no
// allocation and sending one is no work; nor is running, or calling, a
// function the package holds whose body only sends values of no size and
// closes channels (func (w *writer) pause() { w.pauseC <- struct{}{} }):
// a signal holds no per-item memory.
//
// 3. No bound. Each of these keeps the analyzer quiet:
//
//   - in the body of any loop around the spawn, outside the spawned
//     function: a channel send or receive (but for <-x.Done(), a
//     cancellation check), a range over a channel, or a call of a
//     function that blocks or locks: by what it does, across packages
//     (its syncfacts summary), not counting what the goroutines it starts
//     do, nor what its name says (a string limiter named limit, a
//     wait-for-position computation, do not count): directly a receive, a
//     send, a group Wait, a semaphore Acquire or TryAcquire, a Cond Wait,
//     time.Sleep, a Mutex Lock; at any depth a group Wait, an Acquire, a
//     Cond Wait or a sleep; in the callee's own body a channel operation
//     or a Mutex Lock (a send or lock deep in a callee, such as a request
//     queue's, bounds nothing the loop starts); an interface's method,
//     whose code is unknown, counts when a word of its name is acquire,
//     sem, semaphore or throttle. When the child is
//     recursive (it calls the function that spawns it), only the
//     innermost loop counts: a Wait per level of an outer loop does not
//     bound a fan-out whose children fan out again;
//   - in the innermost loop, a break, goto or return under an if whose
//     condition has <, <=, > or >= (a cap on the count spawned);
//   - the spawned function's first statement (after defers) receives
//     from a channel other than x.Done(): a go-ahead
//     (if !<-w.start { return });
//   - in the spawned function, or a function it calls that the package
//     holds: a send on and a receive from the same channel (a token:
//     sem <- struct{}{}; defer func() { <-sem }()), or a call of a
//     function that waits for a slot (a semaphore Acquire at any depth, a
//     Cond Wait of its own; an interface's method with a slot word as
//     above; a group's own Wait does not count);
//   - the spawned function uses an io.Pipe end: the other end must be
//     drained for it to finish, which the loop does in step;
//   - for an errgroup: the group is not a local variable created in the
//     function (var g errgroup.Group, errgroup.WithContext, new or
//     &errgroup.Group{}), or it is used other than for Go, TryGo and Wait
//     (SetLimit anywhere in the function; or handed to anything else,
//     which might limit it);
//   - the spawned function looks like a long-lived worker or service, not
//     the handling of one item: it, or a function it calls that the
//     package holds, has a loop with a select, a receive or a range over
//     a channel, or it calls a function named Serve, ServeTLS,
//     ListenAndServe(TLS) or Start or whose last word is loop, worker,
//     daemon, watcher, monitor, poller, listener or serve (readLoop,
//     startWorker);
//   - the child runs the item as a service: the spawned call, or a call
//     in the body of the spawned literal, is of a function named Run or
//     run, or of a method or function field so named on a value holding
//     the item (a variable of the item, or a parameter of the literal):
//     an informer, a discoverer, a protocol handler, a scrape loop
//     (go inf.Run(ctx.Done()), go func() { d.Run(ctx, ch) }()). A Run
//     method of another value handed the item (go w.run(item)) is the
//     handling of one item, and so is os/exec's Cmd.Run;
//   - the child is handed a stop signal, as a service is: the spawned
//     call, or a call in the body of the spawned literal, has an argument
//     x.Done() of channel type, or a chan struct{} or <-chan struct{},
//     or a context.Context together with a channel. A channel the callee
//     can only send on (a chan<- T parameter), or one its body (a literal,
//     or a function the package holds) sends on or closes, is where it
//     reports back, not a stop signal or a feed, and does not count; nor
//     do the arguments of builtins (close(done));
//   - the child is a method called directly on the item (go l.run(),
//     go w.step()) whose type has a service name as above (a loop
//     interface, a *scrapeLoop, a worker). The item is then a component
//     the loop starts; inside a literal (go func() { l.stop() }()) this
//     does not count.
//
// Generated files and _test.go files are not checked: tests spawn per case
// on purpose, over fixtures.
//
// # Suggested fix
//
// For an errgroup declared in the function (var g errgroup.Group,
// g := new(errgroup.Group), g := &errgroup.Group{},
// g, ctx := errgroup.WithContext(ctx)) the finding offers to insert
//
//	g.SetLimit(runtime.GOMAXPROCS(0))
//
// on the line after the declaration, importing runtime if needed. SetLimit
// must precede the first Go (the group is then empty: the new line comes
// right after its declaration), and a limit can change what the program
// does in two ways, which decide when the fix is offered:
//
//   - TryGo fails once the limit is reached instead of starting the
//     function: no fix if the group has any TryGo call;
//   - a goroutine that waits for a sibling (a receive from a channel
//     another child sends on, a lock another child holds, a Cond, a
//     barrier) can deadlock when the sibling cannot start until it ends;
//     and Go blocks once the limit is reached, so Go calls made from a
//     goroutine other than the declaring function's may stall what the
//     children wait on. The fix is offered only when every Go on the
//     group is a call in the declaring function of a function literal
//     that, with the functions it calls that the package holds, shows no
//     channel operation, select or range over a channel, no value of a
//     channel type or of a type of sync, sync/atomic, errgroup or
//     semaphore, no sync/atomic call, and no call whose name has a word
//     such as wait, lock, acquire, cond, signal, broadcast or barrier.
//
// With those conditions no child can wait on another through anything
// the code shows, so every child finishes whatever the limit, and the Go
// calls only take longer. What remains unseen is a function of another
// package that blocks on state a sibling sets; and the limit trades
// throughput of I/O-bound work for memory. The fix is therefore a
// suggestion to review, applied only with -fix.
//
// Silence a finding with a comment on its line or the line above:
//
//	//spvet:ignore unboundedspawn <reason>
package unboundedspawn
