// Command lab-target is PoolBench's reference service under test: one binary with
// switchable connection-pool strategies, its lab data setup and a blob store upstream.
package main

import (
	"os"

	"poolbench.dev/lab-target/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
