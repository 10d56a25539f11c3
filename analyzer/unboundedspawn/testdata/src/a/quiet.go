package a

import (
	"context"
	"math/rand"
	"os/exec"
	"sync"
)

func fetch(ctx context.Context, it Item, out chan<- []byte) { out <- process(it) }

// Quiet: long-lived services. Run, a stop signal, a service-named
// receiver type.

type informer struct{ ns string }

func (i *informer) Run(stop <-chan struct{}) { consume(i.ns); <-stop }

func (i *informer) Watch(stop <-chan struct{}) { consume(i.ns) }

func (i *informer) Sync(ctx context.Context, in <-chan Item) { consume(i.ns) }

func (i *informer) Flush(stop chan struct{}) { consume(i.ns) }

type discoverer interface {
	Run(ctx context.Context, up chan<- []Item)
}

func informers(ctx context.Context, namespaces []string, ds []discoverer, in <-chan Item, up chan<- []Item) {
	for _, ns := range namespaces {
		inf := &informer{ns: ns}
		go inf.Run(ctx.Done())
	}
	for _, ns := range namespaces {
		inf := &informer{ns: ns}
		go inf.Watch(ctx.Done())
	}
	for _, ns := range namespaces {
		inf := &informer{ns: ns}
		go inf.Sync(ctx, in)
	}
	stop := make(chan struct{})
	for _, ns := range namespaces {
		inf := &informer{ns: ns}
		go inf.Flush(stop)
	}
	for _, d := range ds {
		go func(d discoverer) {
			d.Run(ctx, up)
			consume("done")
		}(d)
	}
}

// Protocol is run for the life of a peer by its function field Run.
type Protocol struct {
	Name string
	Run  func(rw *store) error
}

type protoRW struct {
	Protocol
	rw *store
}

func startProtocols(running []*protoRW) {
	for _, proto := range running {
		go func() {
			err := proto.Run(proto.rw)
			consume(err.Error())
		}()
	}
}

type pollLoop interface {
	step()
	stop()
}

func loops(all []pollLoop) {
	for _, l := range all {
		go l.step()
	}
}

type runner struct{}

func (runner) run(it Item) { process(it) }

// Reported: Run and run count for the item itself, not for a method of
// another value handed the item, nor for os/exec's Cmd.Run (a process run
// to its end); a service-named receiver type counts only for the item.

func runItems(r runner, items []Item, names []string, lp pollLoop) {
	for _, it := range items {
		go r.run(it) // want `one goroutine per element of items`
	}
	for _, name := range names {
		go func() { // want `one goroutine per element of names`
			exec.Command("gzip", name).Run()
		}()
	}
	for _, it := range items {
		go func() { // want `one goroutine per element of items`
			process(it)
			lp.step()
		}()
	}
}

// Reported: a channel the child only sends on is where it delivers its
// result, not a stop signal; and a service-named receiver type counts
// only for a method spawned directly.

func resultSink(ctx context.Context, items []Item, out chan<- []byte) {
	for _, it := range items {
		go fetch(ctx, it, out) // want `one goroutine per element of items`
	}
	done := make(chan struct{})
	for _, it := range items {
		go func(it Item, done chan struct{}) { // want `one goroutine per element of items`
			process(it)
			done <- struct{}{}
		}(it, done)
	}
	for _, it := range items {
		go func() { // want `one goroutine per element of items`
			process(it)
			close(done)
		}()
	}
}

func stopEach(all []pollLoop) {
	var wg sync.WaitGroup
	for _, l := range all {
		wg.Add(1)
		go func(l pollLoop) { // want `one goroutine per element of all`
			l.stop()
			wg.Done()
		}(l)
	}
	wg.Wait()
}

// Quiet: a fan-out to a configured topology.

type StorageAPI interface{ Delete(name string) error }

type NetLocker interface{ Unlock(id string) bool }

type erasureObjects struct{ disks []StorageAPI }

func (er erasureObjects) getDisks() []StorageAPI { return er.disks }

type topo struct {
	peerClients  []*store
	erasureSets  []*erasureObjects
	serverPools  []*erasureObjects
	upstreams    map[string]*store
	siteReplicas []string
}

func (t *topo) fanOut(er erasureObjects, lockers []NetLocker, name string) {
	for _, c := range t.peerClients {
		go c.field()
	}
	for i := range t.peerClients {
		go t.peerClients[i].field()
	}
	for _, s := range t.erasureSets {
		go s.getDisks()[0].Delete(name)
	}
	for i, p := range t.serverPools {
		go p.disks[i].Delete(name)
	}
	for _, u := range t.upstreams {
		go u.field()
	}
	for _, s := range t.siteReplicas {
		go consume(s)
	}
	for _, d := range er.getDisks() {
		go d.Delete(name)
	}
	disks := er.getDisks()
	for _, i := range rand.Perm(len(disks)) {
		go func() { disks[i].Delete(name) }()
	}
	for i := 0; i < len(disks); i++ {
		go disks[i].Delete(name)
	}
	for _, l := range lockers {
		go l.Unlock(name)
	}
}

func (t *topo) heads(clientsByID map[string]*store, objSetMap map[int][]Item, peerList []string, poolIndices []int) {
	for _, i := range poolIndices {
		go t.serverPools[i].getDisks()[0].Delete("x")
	}
	for _, c := range clientsByID {
		go c.field()
	}
	for _, its := range objSetMap {
		go process(its[0])
	}
	for _, p := range peerList {
		go consume(p)
	}
}

// PeerMessage is data that came from a peer.
type PeerMessage struct{ Body []byte }

// Reported: the word that counts is the head of the name, its last.

func messages(peerMessages []Item, clientRequests []string, inbox []PeerMessage) {
	for _, m := range peerMessages {
		go process(m) // want `one goroutine per element of peerMessages`
	}
	for _, r := range clientRequests {
		go consume(r) // want `one goroutine per element of clientRequests`
	}
	for _, m := range inbox {
		go consume(string(m.Body)) // want `one goroutine per element of inbox`
	}
}

// Reported: a word must be whole (offsets is not sets), and buckets,
// clusters and nodes are data.

func dataNames(offsets []int64, buckets []string, clusters []Item, nodes []*store) {
	for _, o := range offsets {
		go consume(string(rune(o))) // want `one goroutine per element of offsets`
	}
	for _, b := range buckets {
		go consume(b) // want `one goroutine per element of buckets`
	}
	for _, c := range clusters {
		go process(c) // want `one goroutine per element of clusters`
	}
	for _, n := range nodes {
		go n.field() // want `one goroutine per element of nodes`
	}
}

// Quiet: a map keyed by a bool, byte or int8 has at most 256 keys.

func smallKeys(byNibble map[byte][]Item, byFlag map[bool]Item, bySign map[int8]Item) {
	for _, its := range byNibble {
		go func() {
			for _, it := range its {
				process(it)
			}
		}()
	}
	for _, it := range byFlag {
		go process(it)
	}
	for _, it := range bySign {
		go process(it)
	}
}

func wideKeys(byPort map[uint16]Item) {
	for _, it := range byPort {
		go process(it) // want `one goroutine per element of byPort`
	}
}

// Quiet: a local slice grown only inside counting loops with constant
// bounds has a bound written in the code.

type trieNode struct {
	children [17]*Item
	val      *Item
}

func children(n *trieNode, short bool) {
	var kids []Item
	if short {
		kids = []Item{*n.val}
	} else {
		for i := 0; i < 17; i++ {
			if n.children[i] != nil {
				kids = append(kids, *n.children[i])
			}
		}
	}
	for _, k := range kids {
		go process(k)
	}
	var more []Item
	for i := range 4 {
		more = append(more, Item{Name: string(rune('a' + i))})
	}
	for _, c := range n.children {
		if c != nil {
			more = append(more, *c)
		}
	}
	for _, m := range more {
		go process(m)
	}
}

// Reported: grown in a loop without a constant bound, or by appending a
// whole slice.

func grown(n int, extra []Item) {
	var kids []Item
	for i := 0; i < n; i++ {
		kids = append(kids, Item{})
	}
	for _, k := range kids {
		go process(k) // want `one goroutine per element of kids`
	}
	var all []Item
	for range 4 {
		all = append(all, extra...)
	}
	for _, a := range all {
		go process(a) // want `one goroutine per element of all`
	}
}

// Quiet: connections, pooled things holding a connection, callbacks
// behind pointers, and registries of code.

type conn struct{ session *store }

func (c *conn) close() error { consume("x"); return nil }

type file struct {
	name string
	c    *conn
}

func (f *file) Close() error { consume(f.name); return nil }

type Analyzer struct {
	Name string
	Run  func(Item) error
}

func execAnalyzer(a *Analyzer) { a.Run(Item{Name: a.Name}) }

func pools(cs []*conn, fs []*file, listeners []*func(), analyzers []*Analyzer) {
	for _, c := range cs {
		go c.close()
	}
	for _, f := range fs {
		go f.Close()
	}
	for i := range listeners {
		go (*listeners[i])()
	}
	for _, a := range analyzers {
		go execAnalyzer(a)
	}
}

// Quiet: the child only signals, holding nothing per item.

type pauser struct {
	pauseC chan struct{}
	items  chan Item
}

func (w *pauser) pause() { w.pauseC <- struct{}{} }

func (w *pauser) hand(it Item) { w.items <- it }

func pauseAll(writers []*pauser) {
	var wg sync.WaitGroup
	for _, w := range writers {
		wg.Add(1)
		go func(w *pauser) {
			w.pause()
			wg.Done()
		}(w)
	}
	wg.Wait()
	for _, w := range writers {
		go w.pause()
	}
	for _, w := range writers {
		go func() { w.pauseC <- struct{}{} }()
	}
}

// Reported: the child hands over a value.

func handAll(writers []*pauser, it Item) {
	for _, w := range writers {
		go w.hand(it) // want `one goroutine per element of writers`
	}
}
