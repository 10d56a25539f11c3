package main

// program is one public Go program of the table: the main package of a
// module pinned at an exact version, with its arguments, standard input
// and the inputs the harness generates for it.
type program struct {
	name   string
	kind   string   // kernel, cli or server
	module string   // module@version, as the Go module proxy serves it
	pkg    string   // the main package, relative to the module's root
	args   []string // {w} stands for the work directory; a * in an argument is globbed
	stdin  string   // a file of the work directory fed on standard input
	env    []string // added to the program's environment
	// inGen runs the program in the generated module {w}/gen, inside a
	// go.work that also uses the module copy (tools that run go list on
	// their working directory); pkg is then named by import path.
	inGen    bool
	inputs   []generator
	prebuild map[string]string // plain binaries built into {w}: name → package
	outputs  []string          // files of {w} the program writes, compared like stdout
	fresh    []string          // files or directories of {w} removed before every run (caches)
	// anyExit leaves the exit status out of the comparison, for a
	// program whose status is a race of its own (the note says which).
	anyExit bool
	note    string // why these arguments, what the program exercises
}

// programs is the pinned list. Every program runs offline, in well under
// ten seconds uninstrumented on this machine, and starts goroutines.
var programs = []program{
	{name: "quic-echo", kind: "server", module: "github.com/quic-go/quic-go@v0.59.1", pkg: "./example/echo", anyExit: true,
		note: "QUIC server and client in one process over UDP on localhost:4242; exit status not compared: " +
			"the server goroutine's log.Fatal races main's return when the client closes (plain: 1 in about 10 runs exits 1)"},
	{name: "mcp-inmemory", kind: "server", module: "github.com/modelcontextprotocol/go-sdk@v1.4.1", pkg: "./examples/server/basic",
		note: "MCP server and client in one process over in-memory transports"},
	{name: "mcp-client", kind: "server", module: "github.com/modelcontextprotocol/go-sdk@v1.4.1", pkg: "./examples/client/listfeatures",
		args: []string{"{w}/mcp-server"}, prebuild: map[string]string{"mcp-server": "./examples/server/everything"},
		note: "MCP client: starts the everything server (built plain) as a child, lists its features over stdin/stdout"},
	{name: "goplugin-kv", kind: "server", module: "github.com/hashicorp/go-plugin@v1.7.0", pkg: "./examples/grpc",
		args: []string{"get", "hello"}, env: []string{"KV_PLUGIN={w}/kv-plugin"},
		prebuild: map[string]string{"kv-plugin": "./examples/grpc/plugin-go-grpc"}, inputs: []generator{genKV},
		note: "host starts the plugin (a gRPC server, built plain) as a child and calls it over a Unix socket"},
	{name: "s2c", kind: "cli", module: "github.com/klauspost/compress@v1.18.0", pkg: "./s2/cmd/s2c",
		args: []string{"-q", "-c", "-blocksize", "256K", "{w}/text.txt"}, inputs: []generator{genText},
		note: "S2 compressor, blocks compressed by GOMAXPROCS goroutines, 24 MiB of generated text to stdout"},
	{name: "bild-blur", kind: "kernel", module: "github.com/anthonynsimon/bild@v0.14.0", pkg: ".",
		args:   []string{"blur", "gaussian", "--radius", "6", "{w}/in.png", "{w}/out.png"},
		inputs: []generator{genPNG}, outputs: []string{"out.png"},
		note: "Gaussian blur of a generated 1024×768 PNG, rows split across goroutines"},
	{name: "bild-median", kind: "kernel", module: "github.com/anthonynsimon/bild@v0.14.0", pkg: ".",
		args:   []string{"effect", "median", "--radius", "2", "{w}/in.png", "{w}/out.png"},
		inputs: []generator{genPNG}, outputs: []string{"out.png"},
		note: "median filter of the same PNG, parallel over rows"},
	{name: "fzf-filter", kind: "cli", module: "github.com/junegunn/fzf@v0.65.2", pkg: ".",
		args: []string{"--filter", "sopa"}, stdin: "paths.txt", inputs: []generator{genPaths},
		note: "fuzzy filter of 300 000 generated paths (reader, matcher partitions, sorter goroutines)"},
	{name: "misspell", kind: "cli", module: "github.com/client9/misspell@v0.3.4", pkg: "./cmd/misspell",
		args: []string{"-j", "1", "-error", "{w}/docs"}, inputs: []generator{genDocs},
		note: "-j 1: its workers print in completion order, nondeterministic with more than one"},
	{name: "gofumpt", kind: "cli", module: "mvdan.cc/gofumpt@v0.9.2", pkg: ".",
		args: []string{"-d", "{w}/gen"}, inputs: []generator{genGoModule},
		note: "diff of 240 generated files, formatted concurrently and printed in order (gofmt's sequencer)"},
	{name: "gosh", kind: "cli", module: "mvdan.cc/sh/v3@v3.12.0", pkg: "./cmd/gosh",
		args: []string{"{w}/pipes.sh"}, inputs: []generator{genShell},
		note: "shell interpreter: pipelines of shell functions, one goroutine per stage"},
	{name: "actionlint", kind: "cli", module: "github.com/rhysd/actionlint@v1.7.7", pkg: "./cmd/actionlint",
		args:   []string{"-no-color", "{w}/wf/*.yml"},
		inputs: []generator{genWorkflows},
		note:   "GitHub Actions linter, files checked concurrently (errgroup), output sorted"},
	{name: "benthos", kind: "cli", module: "github.com/redpanda-data/benthos/v4@v4.60.0", pkg: "./cmd/benthos",
		args: []string{"-c", "{w}/benthos.yaml"}, inputs: []generator{genBenthos},
		note: "stream processor: generate → 2 Bloblang mappings → stdout, 20 000 messages, one pipeline thread"},
	{name: "deadcode", kind: "cli", module: "golang.org/x/tools@v0.38.0", pkg: "./cmd/deadcode",
		args: []string{"./..."}, inGen: true, inputs: []generator{genGoModule},
		note: "go/packages (runs go list) and SSA built in parallel, on the generated module"},
	{name: "fieldalignment", kind: "cli", module: "golang.org/x/tools@v0.38.0", pkg: "./go/analysis/passes/fieldalignment/cmd/fieldalignment",
		args: []string{"./..."}, inGen: true, inputs: []generator{genGoModule},
		note: "singlechecker: one goroutine per package action, on the generated module"},
	{name: "staticcheck", kind: "cli", module: "honnef.co/go/tools@v0.6.1", pkg: "./cmd/staticcheck",
		args: []string{"./..."}, inGen: true, inputs: []generator{genGoModule},
		env:  []string{"STATICCHECK_CACHE={w}/staticcheck-cache"},
		note: "parallel analysis runner on the generated module; its cache in {w} (warm after the first run)"},
}
