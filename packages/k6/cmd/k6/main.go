// Command k6 is PoolBench's k6 build: stock k6 plus the poolbench output
// extension, assembled the way xk6 would generate it.
package main

import (
	k6cmd "go.k6.io/k6/cmd"

	_ "poolbench.dev/k6/poolbench"
)

func main() {
	k6cmd.Execute()
}
