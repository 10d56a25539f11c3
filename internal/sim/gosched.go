package sim

import "math/rand/v2"

// Constants of the Go runtime's scheduler (runtime/proc.go).
const (
	localCap     = 256 // a P's local run queue
	globalPeriod = 61  // every 61st schedule looks at the global queue first
)

// goSched is like the Go runtime's scheduler, one P per processor:
//
//   - at a spawn the parent goes on running (its next strand, on the same
//     P, in the same time slice) and the child goes into the P's runnext
//     slot; the goroutine previously there is kicked to the tail of the
//     local queue;
//   - a strand made ready by another task's completion (a receiver
//     unblocked by a send, a parent whose Wait the last child satisfied)
//     goes to the readier's runnext in the same way, as runtime.ready does;
//   - a P whose task cannot go on (it blocked, or ended) takes, as
//     findRunnable does: the global queue first on every 61st schedule,
//     then runnext (inheriting the time slice), then the head of its local
//     queue, then a batch from the global queue (len/p+1, at most 128: the
//     first runs, the rest go to the local queue), then it steals from the
//     other Ps in a seeded random order (random start, random coprime
//     stride, as runtime.randomOrder): half of the first non-empty local
//     queue (the oldest half; the last one taken runs), or, failing every
//     local queue, a victim's runnext;
//   - a local queue holds 256 goroutines; when full, half of it and the new
//     one go to the global queue (runqputslow);
//   - a strand that has run for a whole time slice since its P last took
//     work without inheriting the slice is preempted: it keeps its memory
//     (counted at its peak) and goes to the tail of the global queue.
type goSched struct {
	p          int
	runnext    []int32
	local      []fifo
	global     fifo
	assigned   []int32 // the running task's next strand, or -1
	nAssign    int
	stealable  int // Σ local lengths + runnext slots in use
	slice      []int64
	schedtick  []uint32
	rng        *rand.Rand
	coprimes   []int
	buf, stole []int32
}

func newGoSched(p int, seed uint64) *goSched {
	s := &goSched{
		p: p, runnext: make([]int32, p), local: make([]fifo, p), assigned: make([]int32, p),
		slice: make([]int64, p), schedtick: make([]uint32, p),
		rng: rand.New(rand.NewPCG(seed, seed)),
	}
	for i := range p {
		s.runnext[i], s.assigned[i] = -1, -1
		if gcd(i+1, p) == 1 {
			s.coprimes = append(s.coprimes, i+1)
		}
	}
	return s
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (s *goSched) init(roots []int32) {
	if len(roots) == 0 {
		return
	}
	s.assigned[0] = roots[0]
	s.nAssign++
	for _, u := range roots[1:] {
		s.global.push(u)
	}
}

func (s *goSched) complete(w int, _ int32, ready []readyItem) {
	for _, it := range ready {
		if it.class == classSame {
			s.assigned[w] = it.v
			s.nAssign++
			continue
		}
		if old := s.runnext[w]; old >= 0 {
			s.runqput(w, old)
		} else {
			s.stealable++
		}
		s.runnext[w] = it.v
	}
}

// runqput puts u at the tail of w's local queue; a full queue sends its
// older half and u to the global queue.
func (s *goSched) runqput(w int, u int32) {
	q := &s.local[w]
	if q.len() < localCap {
		q.push(u)
		s.stealable++
		return
	}
	s.buf = q.take(localCap/2, s.buf[:0])
	s.stealable -= localCap / 2
	for _, v := range s.buf {
		s.global.push(v)
	}
	s.global.push(u)
}

func (s *goSched) preempt(_ int, u int32) { s.global.push(u) }

func (s *goSched) pick(w int, t int64) int32 {
	if u := s.assigned[w]; u >= 0 {
		s.assigned[w] = -1
		s.nAssign--
		return u
	}
	if s.schedtick[w]%globalPeriod == 0 && s.global.len() > 0 {
		return s.fresh(w, t, s.globrunqget(w, 1))
	}
	if u := s.runnext[w]; u >= 0 {
		s.runnext[w] = -1
		s.stealable--
		return u // inherits the time slice
	}
	if s.local[w].len() > 0 {
		s.stealable--
		return s.fresh(w, t, s.local[w].pop())
	}
	if s.global.len() > 0 {
		return s.fresh(w, t, s.globrunqget(w, 0))
	}
	if s.stealable == 0 || s.p == 1 {
		return -1
	}
	return s.fresh(w, t, s.steal(w))
}

// fresh starts a new time slice on w for u.
func (s *goSched) fresh(w int, t int64, u int32) int32 {
	if u >= 0 {
		s.slice[w] = t
		s.schedtick[w]++
	}
	return u
}

// globrunqget takes a batch from the global queue: the first runs, the
// rest go to w's local queue.
func (s *goSched) globrunqget(w int, most int) int32 {
	n := min(s.global.len(), s.global.len()/s.p+1, localCap/2)
	if most > 0 {
		n = min(n, most)
	}
	u := s.global.pop()
	for range n - 1 {
		s.runqput(w, s.global.pop())
	}
	return u
}

// steal takes work from another P, in a random order: first half of a
// local queue, then a runnext slot.
func (s *goSched) steal(w int) int32 {
	start := s.rng.IntN(s.p)
	inc := s.coprimes[s.rng.IntN(len(s.coprimes))]
	for pass := range 2 {
		v := start
		for range s.p {
			if v != w {
				if pass == 0 && s.local[v].len() > 0 {
					q := &s.local[v]
					k := q.len() - q.len()/2
					s.stole = q.take(k, s.stole[:0])
					s.stealable -= k
					for _, x := range s.stole[:k-1] {
						s.runqput(w, x)
					}
					return s.stole[k-1]
				}
				if pass == 1 && s.runnext[v] >= 0 {
					u := s.runnext[v]
					s.runnext[v] = -1
					s.stealable--
					return u
				}
			}
			v = (v + inc) % s.p
		}
	}
	return -1
}

func (s *goSched) hasWork() bool {
	return s.nAssign > 0 || s.stealable > 0 || s.global.len() > 0
}

func (s *goSched) sliceStart(w int) int64 { return s.slice[w] }
