package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/linkproxy"
)

// linkproxyCmd forwards TCP to --upstream, delaying every byte by --delay each way: put it
// between the target and Postgres (--database-url pointing at it) to emulate a network link.
func linkproxyCmd(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	o := linkproxy.Options{Addr: "127.0.0.1:0"}
	fs := flag.NewFlagSet("linkproxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.Addr, "listen", o.Addr, "listen address (port 0 picks a free port)")
	fs.StringVar(&o.Upstream, "upstream", "", "host:port to forward to, e.g. Postgres at 127.0.0.1:5432 (required)")
	fs.Var(durationFlag{&o.Delay}, "delay", "one-way delay added to each direction; a round trip costs twice this (default 0)")
	if err := config.ParseArgs(fs, &config.Config{}, args, prefixedEnv(getenv, "LINKPROXY_")); err != nil {
		return parseFailed(stderr, "linkproxy", err)
	}
	if o.Upstream == "" {
		fmt.Fprintln(stderr, "lab-target linkproxy: --upstream is required (host:port)")
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil)).With("component", "linkproxy")
	p, err := linkproxy.Start(o)
	if err != nil {
		fmt.Fprintf(stderr, "lab-target linkproxy: cannot listen on --listen %s: %v\n", o.Addr, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening %s\n", p.Addr)
	log.Info("started", "listen", p.Addr, "upstream", o.Upstream, "delay", o.Delay)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	_ = p.Close()
	log.Info("stopped", "conns", p.Conns.Load())
	return 0
}
