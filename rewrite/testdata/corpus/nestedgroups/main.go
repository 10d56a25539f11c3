// Program nestedgroups exercises nested synchronization groups.
//
// Constructs:
//   - an errgroup.WithContext whose tasks each start their own
//     sync.WaitGroup fan-out and wait for it;
//   - inner goroutines writing into a per-task slice allocated by the task;
//   - an errgroup nested inside an errgroup task (with SetLimit);
//   - an inner error propagated to the outer group's Wait, and inner tasks
//     polling the outer context with a select/default;
//   - a second run where every task succeeds.
package main

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"
)

func matrix(ctx context.Context, rows, cols int, failRow int) ([][]int, error) {
	g, ctx := errgroup.WithContext(ctx)
	out := make([][]int, rows)
	for r := range rows {
		g.Go(func() error {
			row := make([]int, cols)
			var wg sync.WaitGroup
			for c := range cols {
				wg.Add(1)
				go func() {
					defer wg.Done()
					row[c] = (r + 1) * (c + 2)
				}()
			}
			wg.Wait()
			if r == failRow {
				return fmt.Errorf("row %d rejected", r)
			}
			out[r] = row
			return inner(ctx, row)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// inner checks the cells of one row with a nested, limited errgroup.
func inner(ctx context.Context, row []int) error {
	var g errgroup.Group
	g.SetLimit(2)
	for _, v := range row {
		g.Go(func() error {
			select {
			case <-ctx.Done():
				return context.Cause(ctx) // the outer group already failed
			default:
			}
			if v < 0 {
				return fmt.Errorf("negative cell %d", v)
			}
			return nil
		})
	}
	return g.Wait()
}

func main() {
	m, err := matrix(context.Background(), 4, 3, -1)
	fmt.Println("run 1 error:", err)
	for i, row := range m {
		fmt.Println("row", i, row)
	}

	m, err = matrix(context.Background(), 4, 3, 2)
	fmt.Println("run 2 error:", err, "matrix nil:", m == nil)
}
