// Httploop runs a small HTTP server and its clients in one program over
// loopback: the server answers GET /sum?from=a&to=b with the sum of the
// squares from a to b as a short JSON object, and -clients goroutines
// (joined with a WaitGroup) each send -n/clients requests one after
// another on a keep-alive connection and add up the answers. It prints
// the request count and the total.
//
// What it stresses: code that is nearly all the standard library's. The
// server's goroutines (one per connection) are started by net/http, not
// by the program, and every request is a few dozen allocations by
// uninstrumented code (headers, buffers, the JSON encoding) and blocking
// reads and writes on sockets; the program's own code is the handler and
// the client loop. -n 20000 makes 20,000 round trips.
//
// The server runs on a goroutine of the program's (Serve) that ends when
// the listener closes; the clients and the server goroutine are joined
// before the program prints, so nothing runs after main.
//
// Test size: -n 200 runs in about 30 ms.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
)

// answer is the server's reply.
type answer struct {
	From, To int
	Sum      int64
}

// sumHandler answers /sum?from=a&to=b.
func sumHandler(w http.ResponseWriter, r *http.Request) {
	from, err1 := strconv.Atoi(r.URL.Query().Get("from"))
	to, err2 := strconv.Atoi(r.URL.Query().Get("to"))
	if err := errors.Join(err1, err2); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	a := answer{From: from, To: to}
	for i := from; i <= to; i++ {
		a.Sum += int64(i) * int64(i)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(a)
}

// client sends requests i = first, first+step, … below n and returns the
// sum of the answers.
func client(c *http.Client, base string, first, step, n int) (int64, error) {
	var total int64
	for i := first; i < n; i += step {
		resp, err := c.Get(fmt.Sprintf("%s/sum?from=%d&to=%d", base, i, i+i%64))
		if err != nil {
			return 0, err
		}
		var a answer
		err = json.NewDecoder(resp.Body).Decode(&a)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return 0, fmt.Errorf("request %d: %w", i, err)
		}
		total += a.Sum
	}
	return total, nil
}

func run(n, clients int) (int64, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/sum", sumHandler)
	srv := &http.Server{Handler: mux}
	var server sync.WaitGroup
	var serveErr error
	server.Go(func() { serveErr = srv.Serve(ln) })

	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	c := &http.Client{Transport: tr}
	base := "http://" + ln.Addr().String()
	sums := make([]int64, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for k := range clients {
		wg.Go(func() { sums[k], errs[k] = client(c, base, k, clients, n) })
	}
	wg.Wait()
	tr.CloseIdleConnections()
	srv.Close()
	server.Wait()
	if !errors.Is(serveErr, http.ErrServerClosed) {
		return 0, fmt.Errorf("serve: %w", serveErr)
	}
	var total int64
	for _, s := range sums {
		total += s
	}
	return total, errors.Join(errs...)
}

func main() {
	n := flag.Int("n", 20000, "requests in all")
	clients := flag.Int("clients", 4, "client goroutines")
	flag.Parse()
	total, err := run(*n, max(*clients, 1))
	if err != nil {
		fmt.Fprintln(os.Stderr, "httploop:", err)
		os.Exit(1)
	}
	fmt.Printf("httploop: %d requests, total %d\n", *n, total)
}
