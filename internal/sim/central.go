package sim

// dfSched is p-DF: a min-heap of the ready strands' depth-first ranks.
type dfSched struct {
	rank  []int32 // strand → rank
	order []int32 // rank → strand
	heap  minHeap[rank]
}

func (s *dfSched) init(roots []int32) {
	for _, u := range roots {
		s.push(s.rank[u])
	}
}

func (s *dfSched) complete(_ int, _ int32, ready []readyItem) {
	for _, it := range ready {
		s.push(s.rank[it.v])
	}
}

func (s *dfSched) preempt(_ int, u int32) { s.push(s.rank[u]) }

func (s *dfSched) pick(int, int64) int32 {
	if len(s.heap) == 0 {
		return -1
	}
	return s.order[s.pop()]
}

func (s *dfSched) hasWork() bool        { return len(s.heap) > 0 }
func (s *dfSched) sliceStart(int) int64 { return 0 }

func (s *dfSched) push(r int32) { s.heap.push(rank(r)) }
func (s *dfSched) pop() int32   { return int32(s.heap.pop()) }

// rank is a position in the depth-first order.
type rank int32

func (a rank) less(b rank) bool { return a < b }

// bfSched is breadth-first: one FIFO of ready strands.
type bfSched struct{ q fifo }

func (s *bfSched) init(roots []int32) {
	for _, u := range roots {
		s.q.push(u)
	}
}

func (s *bfSched) complete(_ int, _ int32, ready []readyItem) {
	for _, it := range ready {
		s.q.push(it.v)
	}
}

func (s *bfSched) preempt(_ int, u int32) { s.q.push(u) }

func (s *bfSched) pick(int, int64) int32 {
	if s.q.len() == 0 {
		return -1
	}
	return s.q.pop()
}

func (s *bfSched) hasWork() bool        { return s.q.len() > 0 }
func (s *bfSched) sliceStart(int) int64 { return 0 }

// fifo is a queue of strands; it doubles as a deque (popBack). Its slice
// is compacted when more than half of it is consumed.
type fifo struct {
	buf  []int32
	head int
}

func (q *fifo) len() int       { return len(q.buf) - q.head }
func (q *fifo) push(u int32)   { q.buf = append(q.buf, u) }
func (q *fifo) at(i int) int32 { return q.buf[q.head+i] }

func (q *fifo) pop() int32 {
	u := q.buf[q.head]
	q.head++
	q.compact()
	return u
}

func (q *fifo) popBack() int32 {
	u := q.buf[len(q.buf)-1]
	q.buf = q.buf[:len(q.buf)-1]
	q.compact()
	return u
}

// take removes and returns the first k entries (aliasing nothing).
func (q *fifo) take(k int, dst []int32) []int32 {
	dst = append(dst, q.buf[q.head:q.head+k]...)
	q.head += k
	q.compact()
	return dst
}

func (q *fifo) compact() {
	switch {
	case q.head == len(q.buf):
		q.buf, q.head = q.buf[:0], 0
	case q.head > 64 && 2*q.head > len(q.buf):
		n := copy(q.buf, q.buf[q.head:])
		q.buf, q.head = q.buf[:n], 0
	}
}
