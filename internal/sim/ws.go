package sim

import "math/rand/v2"

// wsSched is work stealing with Cilk's rules:
//
//   - work first: at a spawn the worker runs the child and pushes the
//     continuation on the bottom of its own deque;
//   - a worker whose strand ends runs the strand that completion made
//     ready: its own task's next strand, or a strand of another task it
//     made ready (the parent after a join this worker satisfied, a
//     receiver it unblocked) — Cilk's rule that the last child to arrive
//     at a join resumes the parent. When several are made ready, the first
//     in policy order runs and the others go on the bottom of the deque
//     (the first of them at the bottom), so a worker that continues its
//     own task pushes the strand it unblocked;
//   - when the completion made nothing ready (an unsatisfied join, a
//     blocked task, the task's end) the worker pops the bottom of its own
//     deque;
//   - a worker with nothing to do steals the top (oldest) entry of a victim
//     drawn from a seeded PCG, trying the next workers in index order when
//     that deque is empty.
type wsSched struct {
	p        int
	deq      []fifo  // bottom = back, top = front
	assigned []int32 // what each worker runs next, or -1
	nAssign  int     // workers with an assigned strand
	nonEmpty int     // workers with a non-empty deque
	rng      *rand.Rand
}

func newWS(p int, seed uint64) *wsSched {
	s := &wsSched{p: p, deq: make([]fifo, p), assigned: make([]int32, p), rng: rand.New(rand.NewPCG(seed, seed))}
	for i := range s.assigned {
		s.assigned[i] = -1
	}
	return s
}

func (s *wsSched) init(roots []int32) {
	if len(roots) == 0 {
		return
	}
	s.assign(0, roots[0])
	for i := len(roots) - 1; i >= 1; i-- {
		s.pushBottom(0, roots[i])
	}
}

func (s *wsSched) assign(w int, u int32) {
	s.assigned[w] = u
	s.nAssign++
}

func (s *wsSched) pushBottom(w int, u int32) {
	if s.deq[w].len() == 0 {
		s.nonEmpty++
	}
	s.deq[w].push(u)
}

func (s *wsSched) popBottom(w int) int32 {
	u := s.deq[w].popBack()
	if s.deq[w].len() == 0 {
		s.nonEmpty--
	}
	return u
}

func (s *wsSched) stealTop(w int) int32 {
	u := s.deq[w].pop()
	if s.deq[w].len() == 0 {
		s.nonEmpty--
	}
	return u
}

func (s *wsSched) complete(w int, _ int32, ready []readyItem) {
	if len(ready) == 0 {
		if s.deq[w].len() > 0 {
			s.assign(w, s.popBottom(w))
		}
		return
	}
	s.assign(w, ready[0].v)
	for i := len(ready) - 1; i >= 1; i-- {
		s.pushBottom(w, ready[i].v)
	}
}

// preempt does not happen under WS (no time slice); the strand would go
// back to the bottom of the worker's deque.
func (s *wsSched) preempt(w int, u int32) { s.pushBottom(w, u) }

func (s *wsSched) pick(w int, _ int64) int32 {
	if u := s.assigned[w]; u >= 0 {
		s.assigned[w] = -1
		s.nAssign--
		return u
	}
	if s.deq[w].len() > 0 {
		return s.popBottom(w)
	}
	if s.nonEmpty == 0 || s.p == 1 {
		return -1
	}
	v := s.rng.IntN(s.p - 1)
	if v >= w {
		v++
	}
	for range s.p {
		if v != w && s.deq[v].len() > 0 {
			return s.stealTop(v)
		}
		if v++; v == s.p {
			v = 0
		}
	}
	return -1
}

func (s *wsSched) hasWork() bool        { return s.nAssign > 0 || s.nonEmpty > 0 }
func (s *wsSched) sliceStart(int) int64 { return 0 }
