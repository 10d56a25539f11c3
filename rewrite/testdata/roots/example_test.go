package roots_test

import (
	"fmt"

	"github.com/spgo/spgo/rewrite/testdata/roots"
)

func ExampleSquares() {
	fmt.Println(roots.Squares([]int{1, 2, 3}))
	// Output: [1 4 9]
}
