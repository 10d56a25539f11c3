// Nqueens counts the placements of n non-attacking queens on an n×n
// board, Cilk style: queens go in row by row, and in the top cutoff rows
// every safe column of the next row is tried by a task of its own.
//
// Per task: a task placing the queen of row r < cutoff copies its
// parent's board into a new n-byte slice and puts its queen there; if
// r+1 < cutoff it also allocates n ints in which its own children store
// their counts. The board stays live until the children are joined (or
// the task returns), the counts until they are summed after the join.
// The root holds an empty board and the counts of row 0. From row
// cutoff on the search runs serially in the task's board, without
// allocating.
//
// Analytic MHWM: with b and c the size classes of n bytes and n ints
// (16 and 112 B for n = 14; 8 and 64 B for n = 8), a finished task
// holding nothing, MHWM_p is the most memory p root-to-leaf paths of the
// task tree cover: no closed form beyond MHWM_1 = serial peak =
// cutoff·(b+c) + b, 224 B at -n 8; from p = #leaves (#partial solutions
// of cutoff rows) on, every task: 4792 B at -n 8 (1 + 8 + 42 tasks with
// counts, 140 without).
//
// Test size: -n 8 (92 solutions) runs in about a millisecond.
package main

import (
	"flag"
	"fmt"
	"sync"
)

var cutoff = flag.Int("cutoff", 3, "spawn tasks for the queens of the top cutoff rows")

// safe reports whether a queen at (row, col) is attacked by none of the
// queens in board[:row].
func safe(board []int8, row int, col int8) bool {
	for r, c := range board[:row] {
		d := int8(row - r)
		if c == col || c-col == d || col-c == d {
			return false
		}
	}
	return true
}

// serial counts the completions of board[:row] in place.
func serial(board []int8, row int) int {
	if row == len(board) {
		return 1
	}
	count := 0
	for col := range int8(len(board)) {
		if safe(board, row, col) {
			board[row] = col
			count += serial(board, row+1)
		}
	}
	return count
}

// queens counts the completions of board[:row], with a task per safe
// column of row while row < cutoff.
func queens(board []int8, row int) int {
	n := len(board)
	if row >= *cutoff || row == n {
		return serial(board, row)
	}
	counts := make([]int, n)
	var wg sync.WaitGroup
	for col := range int8(n) {
		if safe(board, row, col) {
			wg.Go(func() {
				b := make([]int8, n)
				copy(b, board[:row])
				b[row] = col
				counts[col] = queens(b, row+1)
			})
		}
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	return total
}

func main() {
	n := flag.Int("n", 14, "board size")
	flag.Parse()
	fmt.Printf("queens(%d) = %d\n", *n, queens(make([]int8, *n), 0))
}
