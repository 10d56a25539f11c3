// mapinserts: statements that insert into a map are followed by
// rt.MapSeen: an assignment, an operator assignment, an increment, a
// field's map, two maps in one statement. Left alone: a read, a map the
// statement assigns, an if's init, a delete.
package main

import "fmt"

type index struct{ byName map[string]int }

func main() {
	m := make(map[int]int)
	counts := map[string]int{}
	ix := &index{byName: map[string]int{}}
	for i := range 100 {
		m[i] = i * i
		m[i%7] += i
		counts[fmt.Sprint(i%3)]++
		ix.byName["n"], m[-i] = i, i
	}
	v := m[3]
	m2 := map[int]int{}
	m2, m2[1] = map[int]int{}, 2
	if m[0] = 1; v > 0 {
		delete(m, 0)
	}
	fmt.Println(len(m), counts, ix.byName, v, m2)
}
