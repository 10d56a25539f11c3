package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// genKV writes kv_hello in the program's directory, the value the kv
// plugin reads for the key hello.
func genKV(_, cwd string) error {
	return writeFile(cwd, "kv_hello", "world, from the spgo harness\n")
}

// genShell writes pipes.sh: five rounds of a three-stage pipeline of
// shell functions, builtins only (no child processes).
func genShell(w, _ string) error {
	return writeFile(w, "pipes.sh", `gen() {
	i=0
	while [ $i -lt 1500 ]; do
		echo "row $i $(( (i * i + 7 * $1) % 101 ))"
		i=$((i + 1))
	done
}
keep() {
	while read -r tag n v; do
		if [ $((v % 3)) -eq 0 ]; then echo "$n:$v"; fi
	done
}
total() {
	c=0; s=0
	while read -r x; do c=$((c + 1)); s=$((s + ${x#*:})); done
	echo "round $1: $c rows, sum $s"
}
for k in 1 2 3 4 5; do
	gen $k | keep | total $k
done
`)
}

// genBenthos writes benthos.yaml: 20 000 generated messages through two
// Bloblang mappings to stdout, with the HTTP server, logs and metrics off.
func genBenthos(w, _ string) error {
	return writeFile(w, "benthos.yaml", `http:
  enabled: false
logger:
  level: NONE
metrics:
  none: {}
input:
  generate:
    count: 20000
    interval: ""
    mapping: |
      root.id = count("spgo")
      root.name = "item-" + (root.id * 7919 % 10007).string()
pipeline:
  threads: 1
  processors:
    - mapping: |
        root = this
        root.sq = this.id * this.id
        root.kind = if this.id % 3 == 0 { "fizz" } else if this.id % 5 == 0 { "buzz" } else { "plain" }
    - mapping: |
        root = if this.kind == "plain" && this.id % 2 == 0 { deleted() } else { this }
output:
  stdout:
    codec: lines
`)
}

// genWorkflows writes wf/a00.yml … a39.yml, GitHub Actions workflows with
// mistakes actionlint reports (unknown context property, bad runner label,
// invalid cron, undefined step output, wrong input type).
func genWorkflows(w, _ string) error {
	for k := range 40 {
		var b strings.Builder
		fmt.Fprintf(&b, "name: wf%d\non:\n  push:\n  schedule:\n    - cron: '0 %d * * 8'\njobs:\n", k, k)
		for j := range 30 {
			fmt.Fprintf(&b, "  job%d:\n    runs-on: ubuntu-%s\n    timeout-minutes: %s\n    steps:\n", j,
				[]string{"latest", "22.04", "lastest"}[j%3], []string{"10", "'ten'"}[j%2])
			fmt.Fprintf(&b, "      - id: s%d\n        run: echo \"${{ github.event.head_commit.message }}\"\n", j)
			fmt.Fprintf(&b, "      - run: echo ${{ steps.s%d.outputs.value }} ${{ steps.nosuch%d.outputs.x }}\n", j, j)
			fmt.Fprintf(&b, "      - uses: actions/checkout@v4\n        with:\n          fetch-depth: %d\n          no-such-input: x\n", j)
			fmt.Fprintf(&b, "      - run: echo ${{ github.no_such_%d }} ${{ matrix.os }}\n", j)
		}
		if err := writeFile(w, filepath.Join("wf", fmt.Sprintf("a%02d.yml", k)), b.String()); err != nil {
			return err
		}
	}
	return nil
}
