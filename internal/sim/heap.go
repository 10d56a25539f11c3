package sim

// ordered is an element of a minHeap.
type ordered[T any] interface{ less(T) bool }

// minHeap is a binary min-heap.
type minHeap[T ordered[T]] []T

func (h *minHeap[T]) push(x T) {
	s := append(*h, x)
	for i := len(s) - 1; i > 0; {
		j := (i - 1) / 2
		if !s[i].less(s[j]) {
			break
		}
		s[i], s[j] = s[j], s[i]
		i = j
	}
	*h = s
}

func (h *minHeap[T]) pop() T {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		if l+1 < n && s[l+1].less(s[l]) {
			l++
		}
		if !s[l].less(s[i]) {
			break
		}
		s[i], s[l] = s[l], s[i]
		i = l
	}
	*h = s
	return top
}
