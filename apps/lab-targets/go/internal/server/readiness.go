package server

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"poolbench.dev/lab-target/internal/metrics"
)

// recheckEvery bounds how often /ready opens a probe connection once the instance is up.
const recheckEvery = 5 * time.Second

const reasonStarting = "start-up work in progress"

// Readiness tracks whether start-up work is done and the database answers. The probe uses
// its own short-lived connection (application_name "<app>:probe") so that checking
// readiness never opens a pool connection: a lazy pool must show none before traffic.
type Readiness struct {
	probeFn func(context.Context) error
	m       *metrics.Metrics
	log     *slog.Logger

	mu        sync.Mutex
	started   bool
	ready     bool
	reason    string
	checkedAt time.Time
	probing   sync.Mutex
}

// NewReadiness starts not ready, with reason "starting".
func NewReadiness(probeCfg *pgx.ConnConfig, m *metrics.Metrics, log *slog.Logger) *Readiness {
	return NewProbeReadiness(func(ctx context.Context) error {
		conn, err := pgx.ConnectConfig(ctx, probeCfg)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		return conn.Ping(ctx)
	}, m, log)
}

// NewProbeReadiness is NewReadiness with the probe given as a function (MariaDB: its own
// driver connection, see pools.MySQLProbe). The probe must not use a pool connection.
func NewProbeReadiness(probe func(context.Context) error, m *metrics.Metrics, log *slog.Logger) *Readiness {
	return &Readiness{probeFn: probe, m: m, log: log, reason: "starting"}
}

func (r *Readiness) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return r.probeFn(ctx)
}

func (r *Readiness) set(ready bool, reason string) {
	r.mu.Lock()
	changed := r.ready != ready || r.reason != reason
	r.ready, r.reason, r.checkedAt = ready, reason, time.Now()
	r.mu.Unlock()
	if ready {
		r.m.Ready.Set(1)
	} else {
		r.m.Ready.Set(0)
	}
	if changed {
		if ready {
			r.log.Info("ready")
		} else if reason == reasonStarting {
			r.log.Info("start-up work in progress")
		} else {
			r.log.Warn("not ready", "reason", reason)
		}
	}
}

// Run retries probe + startup with backoff until both succeed or ctx ends.
func (r *Readiness) Run(ctx context.Context, startup func(context.Context) error) {
	backoff := 200 * time.Millisecond
	for {
		err := r.probe(ctx)
		if err != nil {
			r.set(false, "database unreachable: "+err.Error())
		} else {
			r.set(false, reasonStarting)
			sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			err = startup(sctx)
			cancel()
			if err != nil {
				r.set(false, "start-up work failed: "+err.Error())
			}
		}
		if err == nil {
			r.mu.Lock()
			r.started = true
			r.mu.Unlock()
			r.set(true, "")
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 2*time.Second)
	}
}

// Check answers /ready. Once started, it re-probes the database at most every recheckEvery
// (one probe at a time; concurrent callers get the last answer).
func (r *Readiness) Check(ctx context.Context) (bool, string) {
	r.mu.Lock()
	started, ready, reason, stale := r.started, r.ready, r.reason, time.Since(r.checkedAt) > recheckEvery
	r.mu.Unlock()
	if !started || !stale || !r.probing.TryLock() {
		return ready, reason
	}
	defer r.probing.Unlock()
	if err := r.probe(ctx); err != nil {
		r.set(false, "database unreachable: "+err.Error())
	} else {
		r.set(true, "")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ready, r.reason
}
