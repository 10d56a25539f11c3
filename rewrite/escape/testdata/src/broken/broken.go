// Package broken does not compile.
package broken

func F() int {
	return undefinedThing + 1
}
