// Package sites has one allocation site of each kind that spgo hooks; the
// escape package's tests check the compiler's decision and column for each.
package sites

// T is a small struct.
type T struct{ a, b int }

// M is a method, for method values.
func (t T) M() int { return t.a }

var sink any

var sinkT *T

func makeSlice(n int) []int {
	s := make([]int, n)
	return s
}

func makeLocal() int {
	s := make([]int, 8)
	return len(s)
}

func makeBig() int {
	b := make([]byte, 1<<20)
	return len(b)
}

func newLocal() int {
	p := new(T)
	return p.a
}

func makeMap() map[string]int {
	return make(map[string]int)
}

func makeChan() chan int {
	return make(chan int, 1)
}

func newT() *T {
	return new(T)
}

func addrLit() *T {
	return &T{1, 2}
}

func valueLit() {
	sink = T{1, 2}
}

func sliceLit() []int {
	return []int{1, 2, 3}
}

func elidedAddr() []*T {
	return []*T{{1, 2}}
}

func mapLit() map[string]int {
	return map[string]int{"a": 1}
}

func concat(a, b, c string) string {
	return a + b + c
}

func concatLocal(a, b string) int {
	s := a + b
	return len(s)
}

func concatAssign(a string) string {
	a += "!"
	return a
}

func bytesToString(b []byte) string {
	return string(b)
}

func stringToBytes(s string) []byte {
	return []byte(s)
}

func stringToRunes(s string) []rune {
	return []rune(s)
}

func runeToString(r rune) string {
	return string(r)
}

func convParen(b []byte) string {
	return string((b))
}

func closure(x int) func() int {
	return func() int { return x }
}

func closureLocal(x int) int {
	f := func() int { return x }
	return f()
}

func methodValue(t T) func() int {
	return t.M
}

func moved() *int {
	x := 1
	return &x
}

func appendParam(s []int, x int) []int {
	return append(s, x)
}

func appendLocal(n int) int {
	var s []int
	for i := 0; i < n; i++ {
		s = append(s, i)
	}
	return len(s)
}

func iface(x int) {
	sink = x
}

func ifaceCall() {
	sink = value()
}

//go:noinline
func value() T { return T{} }

func ifaceField(t T) {
	sink = t.b
}

func variadic(xs ...int) int { return len(xs) }

func callVariadic() int {
	return variadic(1, 2, 3)
}

func goClosure(x int) {
	go func() { sinkT = &T{x, x} }()
}

func ifaceDeref(p *int) {
	sink = *p
}

func ifaceIndex(s []int) {
	sink = s[0]
}

func ifaceAssert(x any) {
	sink = x.(int)
}
