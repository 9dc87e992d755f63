package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"
	"time"

	"poolbench.dev/lab-target/internal/blobstore"
	"poolbench.dev/lab-target/internal/config"
)

func blobstoreCmd(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	listen := "127.0.0.1:9000"
	selfSigned := false
	store := "discard"
	var maxBytes int64 = 256 << 20
	var delay time.Duration
	fs := flag.NewFlagSet("blobstore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&listen, "listen", listen, "listen address (port 0 picks a free port)")
	fs.BoolVar(&selfSigned, "tls-self-signed", selfSigned, "serve HTTPS with an in-memory self-signed RSA-2048 certificate")
	fs.StringVar(&store, "store", store, "discard | memory (keep bodies up to --max-store-bytes)")
	fs.Int64Var(&maxBytes, "max-store-bytes", maxBytes, "memory store limit")
	fs.Var(durationFlag{&delay}, "handshake-delay", "added once per new connection before its handshake, to emulate network round trips (default 0 = loopback)")
	if err := config.ParseArgs(fs, &config.Config{}, args, prefixedEnv(getenv, "BLOBSTORE_")); err != nil {
		return parseFailed(stderr, "blobstore", err)
	}
	if store != "discard" && store != "memory" {
		fmt.Fprintf(stderr, "lab-target blobstore: invalid --store %q: must be discard or memory\n", store)
		return 2
	}
	if maxBytes < 0 {
		fmt.Fprintf(stderr, "lab-target blobstore: invalid --max-store-bytes %d: must be >= 0\n", maxBytes)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil)).With("component", "blobstore")
	srv, err := blobstore.Start(blobstore.Options{Addr: listen, SelfSigned: selfSigned, HandshakeDelay: delay}, blobstore.NewStore(store == "memory", maxBytes))
	if err != nil {
		fmt.Fprintf(stderr, "lab-target blobstore: cannot listen on --listen %s: %v\n", listen, err)
		return 1
	}
	fmt.Fprintf(stdout, "listening %s\n", srv.URL)
	log.Info("started", "url", srv.URL, "store", store)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	select {
	case <-ctx.Done():
	case err := <-srv.Done():
		if err != nil {
			log.Error("serve failed", "err", err)
			return 1
		}
	}
	_ = srv.Close(5 * time.Second)
	log.Info("stopped", "puts", srv.Store.Puts.Load(), "conns", srv.Store.Conns.Load())
	return 0
}

// prefixedEnv maps LAB_LISTEN to LAB_BLOBSTORE_LISTEN so a blob store started beside a
// target does not pick up the target's LAB_LISTEN.
func prefixedEnv(getenv func(string) string, prefix string) func(string) string {
	return func(name string) string { return getenv("LAB_" + prefix + name[len("LAB_"):]) }
}
