// Package cli is the lab-target command line: serve (default), setup, blobstore, linkproxy,
// version.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	"poolbench.dev/lab-target/internal/config"
)

// Version is overridden at build time with -ldflags "-X ...cli.Version=...".
var Version = "0.1.0"

const usage = `usage: lab-target [serve] [flags]      run the service under test (see --help)
       lab-target setup --database-url=... [--rows --fields --roles --permissions --shards]
       lab-target blobstore --listen=127.0.0.1:9000 [--tls-self-signed] [--store=discard|memory]
       lab-target linkproxy --upstream=host:port [--listen=127.0.0.1:0] [--delay=25ms]
       lab-target version
`

// Run executes one command and returns the process exit code: 0 ok, 1 runtime failure,
// 2 bad usage (unknown flag or invalid value, message names the flag).
func Run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stdout, stderr, getenv)
	case "setup":
		return setup(args, stdout, stderr, getenv)
	case "blobstore":
		return blobstoreCmd(args, stdout, stderr, getenv)
	case "linkproxy":
		return linkproxyCmd(args, stdout, stderr, getenv)
	case "version":
		fmt.Fprintf(stdout, "lab-target %s (%s)\n", Version, runtime.Version())
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "lab-target: unknown command %q\n%s", cmd, usage)
	return 2
}

// parseFailed reports a flag error and picks the exit code.
func parseFailed(stderr io.Writer, cmd string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ue *config.UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "lab-target %s: %s\n", cmd, ue.Msg)
		return 2
	}
	fmt.Fprintf(stderr, "lab-target %s: %v\n", cmd, err)
	return 2
}
