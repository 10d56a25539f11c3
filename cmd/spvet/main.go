// Command spvet runs spgo's analyzers: patterns that wreck space under
// parallelism, and synchronisation that makes spbuild's figures inexact.
//
// As a go vet tool:
//
//	go vet -vettool=$(which spvet) ./...
//
// or standalone, with -json output and -fix:
//
//	spvet ./...
//
// Run "spvet help" for the analyzers and their flags.
package main

import (
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/spgo/spgo/analyzer/joinbeforeconsume"
	"github.com/spgo/spgo/analyzer/nonsp"
	"github.com/spgo/spgo/analyzer/tailstrict"
	"github.com/spgo/spgo/analyzer/unboundedspawn"
)

// analyzers are spvet's analyzers.
var analyzers = []*analysis.Analyzer{
	nonsp.Analyzer,
	tailstrict.Analyzer,
	unboundedspawn.Analyzer,
	joinbeforeconsume.Analyzer,
}

func main() {
	if vetProtocol(os.Args[1:]) {
		unitchecker.Main(analyzers...)
	}
	multichecker.Main(analyzers...)
}

// vetProtocol reports whether go vet is running the tool: it asks for
// -V=full or -flags, or passes a unit's .cfg file last.
func vetProtocol(args []string) bool {
	if len(args) == 0 {
		return false
	}
	last := args[len(args)-1]
	return strings.HasSuffix(last, ".cfg") || last == "-V=full" || last == "-flags"
}
