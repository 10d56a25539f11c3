package a

import "testing"

func TestSpawn(t *testing.T) {
	cases := make([]Item, 0)
	cases = append(cases, Item{Name: "x"})
	for _, c := range cases {
		go process(c) // tests spawn per case on purpose
	}
}
