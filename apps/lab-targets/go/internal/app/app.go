// Package app wires one lab-target instance: strategy, upstream client, readiness, HTTP.
// Tests build it in-process; the CLI wraps it in a listener and signal handling.
package app

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/metrics"
	"poolbench.dev/lab-target/internal/pools"
	"poolbench.dev/lab-target/internal/server"
	"poolbench.dev/lab-target/internal/upstream"
)

// App is one running instance (without its listener).
type App struct {
	Cfg      *config.Config
	Metrics  *metrics.Metrics
	Strategy pools.Strategy
	Upstream *upstream.Client
	Ready    *server.Readiness
	Handler  http.Handler
	Log      *slog.Logger

	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New builds the instance from a validated config; it opens no connection yet.
func New(cfg config.Config, log *slog.Logger) (*App, error) {
	c := &cfg
	m := metrics.New()
	strat, err := pools.New(pools.Deps{Cfg: c, Metrics: m, Log: log})
	if err != nil {
		return nil, err
	}
	m.RegisterPools(strat.Stats)
	a := &App{Cfg: c, Metrics: m, Strategy: strat, Log: log}
	if c.UpstreamURL != "" {
		idle := 90 * time.Second // Go's default http.Transport idle timeout
		if c.Strategy == "prewarm" {
			idle = 0
		}
		a.Upstream, err = upstream.New(upstream.Options{
			URL: c.UpstreamURL, Insecure: c.UpstreamInsecure, Conns: c.UpstreamConns,
			ConnectTimeout: c.ConnectTimeout, IdleTimeout: idle,
		}, m)
		if err != nil {
			strat.Close()
			return nil, err
		}
	}
	if config.IsMySQL(c.DatabaseURL) {
		probe, err := pools.MySQLProbe(c)
		if err != nil {
			strat.Close()
			return nil, err
		}
		a.Ready = server.NewProbeReadiness(probe, m, log)
		m.DBErrors.WithLabelValues("1040") // MariaDB's "too many connections", visible at 0
	} else {
		probeCfg, err := pools.ConnConfig(c, "probe")
		if err != nil {
			strat.Close()
			return nil, err
		}
		a.Ready = server.NewReadiness(probeCfg, m, log)
	}
	srv := &server.Server{Cfg: c, Strategy: strat, Metrics: m, Upstream: a.Upstream, Ready: a.Ready, Log: log}
	a.Handler = srv.Handler()
	return a, nil
}

// Start begins the start-up work in the background; /ready turns 200 when it is done.
func (a *App) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.Ready.Run(ctx, a.startup)
		if a.Cfg.Strategy == "prewarm" && a.Upstream != nil && a.Cfg.Keepalive > 0 {
			a.upstreamKeepalive(ctx)
		}
	}()
}

// startup is the strategy's own start-up work plus, for prewarm, the upstream pool.
func (a *App) startup(ctx context.Context) error {
	if err := a.Strategy.Start(ctx); err != nil {
		return err
	}
	if a.Cfg.Strategy == "prewarm" && a.Upstream != nil {
		return a.Upstream.Warm(ctx)
	}
	return nil
}

// upstreamKeepalive re-warms the upstream pool so its connections stay open and ready.
func (a *App) upstreamKeepalive(ctx context.Context) {
	t := time.NewTicker(a.Cfg.Keepalive)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			wctx, cancel := context.WithTimeout(ctx, a.Cfg.Keepalive)
			if err := a.Upstream.Warm(wctx); err != nil {
				a.Log.Warn("upstream keepalive failed", "err", err)
			}
			cancel()
		}
	}
}

// Close stops background work and closes every pool and upstream connection.
func (a *App) Close() {
	if a.cancel != nil {
		a.cancel()
	}
	a.wg.Wait()
	a.Strategy.Close()
	if a.Upstream != nil {
		a.Upstream.Close()
	}
}
