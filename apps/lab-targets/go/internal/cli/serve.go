package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"poolbench.dev/lab-target/internal/app"
	"poolbench.dev/lab-target/internal/config"
)

func serve(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg := config.Defaults()
	fs := config.NewServeFlagSet(&cfg, stderr)
	if err := config.ParseArgs(fs, &cfg, args, getenv); err != nil {
		return parseFailed(stderr, "serve", err)
	}
	cfg.Resolve()
	if err := cfg.Validate(); err != nil {
		return parseFailed(stderr, "serve", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil)).With("instance", cfg.InstanceID)
	a, err := app.New(cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "lab-target serve: invalid --database-url or --upstream-url: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		a.Close()
		fmt.Fprintf(stderr, "lab-target serve: cannot listen on --listen %s: %v\n", cfg.Listen, err)
		return 1
	}
	// The worker reads this line to learn the port when --listen ends in :0.
	fmt.Fprintf(stdout, "listening http://%s\n", ln.Addr())
	log.Info("starting", "strategy", cfg.Strategy, "listen", ln.Addr().String(), "maxConns", cfg.MaxConns,
		"minConns", cfg.MinConns, "acquireTimeout", cfg.AcquireTimeout, "applicationName", cfg.AppName)
	a.Start()

	srv := &http.Server{Handler: a.Handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	code := 0
	select {
	case <-ctx.Done():
		log.Info("signal received, shutting down")
	case err := <-serveErr:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Error("http server failed", "err", err)
			code = 1
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("in-flight requests cut off at shutdown", "err", err)
	}
	a.Close()
	log.Info("stopped")
	return code
}
