// Ending the program: time.Sleep, log.Fatal in a statement list and
// under a label, a *log.Logger's Fatalf, and os.Exit.
package main

import (
	"log"
	"os"
	"time"
)

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func main() {
	time.Sleep(time.Millisecond)
	check(nil)
	l := log.New(os.Stderr, "x: ", 0)
	if len(os.Args) > 5 {
		l.Fatalf("too many: %d", len(os.Args))
	}
	if len(os.Args) > 3 {
	fatal:
		log.Fatalln("three")
		goto fatal
	}
	defer println("not run")
	os.Exit(3)
}
