package pools

import (
	"context"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/metrics"
)

// never stands in for "no limit" where pgxpool treats 0 as "immediately".
const never = 100 * 365 * 24 * time.Hour

// Deps is what every strategy needs.
type Deps struct {
	Cfg     *config.Config
	Metrics *metrics.Metrics
	Log     *slog.Logger
}

// ConnConfig parses the DSN and applies what every connection of this instance shares:
// application_name "<app>:<pool>" (so pg_stat_activity tells pools apart), connect timeout
// and statement_timeout.
func ConnConfig(cfg *config.Config, pool string) (*pgx.ConnConfig, error) {
	cc, err := pgx.ParseConfig(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	applyConnSettings(cc, cfg, pool)
	return cc, nil
}

func applyConnSettings(cc *pgx.ConnConfig, cfg *config.Config, pool string) {
	cc.RuntimeParams["application_name"] = cfg.AppName + ":" + pool
	if cfg.StatementTimeout > 0 {
		cc.RuntimeParams["statement_timeout"] = strconv.FormatInt(cfg.StatementTimeout.Milliseconds(), 10)
	}
	if cfg.ConnectTimeout > 0 {
		cc.ConnectTimeout = cfg.ConnectTimeout
	}
}

// box is one named pgxpool plus the counters pgxpool does not keep itself.
type box struct {
	label string
	pool  *pgxpool.Pool
	deps  Deps
	limit func() int64 // current limit when something in front of the pool sets it (adaptive)

	created, closed                         atomic.Int64
	extraAcquire, extraEmpty, extraCanceled atomic.Int64
	waiting                                 atomic.Int64
}

// newBox creates a pool (pgxpool connects lazily unless MinConns > 0). tune adjusts the
// strategy-specific settings after the shared ones are applied.
func newBox(d Deps, label string, tune func(*pgxpool.Config)) (*box, error) {
	b := &box{label: label, deps: d}
	pc, err := poolConfig(d, label, 0, &b.created, &b.closed)
	if err != nil {
		return nil, err
	}
	if tune != nil {
		tune(pc)
	}
	b.pool, err = pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// poolConfig is the one pgxpool set-up every strategy shares: the flags' sizes, lifetimes and
// health checks, the connection settings, and counters of connections opened and closed.
func poolConfig(d Deps, label string, minConns int, created, closed *atomic.Int64) (*pgxpool.Config, error) {
	pc, err := pgxpool.ParseConfig(d.Cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	applyConnSettings(pc.ConnConfig, d.Cfg, label)
	pc.MaxConns = int32(d.Cfg.MaxConns)
	pc.MinConns = int32(minConns)
	pc.MaxConnLifetime = d.Cfg.MaxLifetime
	pc.MaxConnIdleTime = orNever(d.Cfg.IdleTimeout)
	pc.HealthCheckPeriod = d.Cfg.HealthCheckPeriod
	pc.AfterConnect = func(context.Context, *pgx.Conn) error { created.Add(1); return nil }
	pc.BeforeClose = func(*pgx.Conn) { closed.Add(1) }
	return pc, nil
}

func orNever(d time.Duration) time.Duration {
	if d <= 0 {
		return never
	}
	return d
}

// acquire waits for a connection, bounded by --acquire-timeout, and records the wait.
func (b *box) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	b.waiting.Add(1)
	defer b.waiting.Add(-1)
	start := time.Now()
	actx, cancel, timedOut := acquireContext(ctx, b.deps.Cfg.AcquireTimeout)
	defer cancel()
	c, err := b.pool.Acquire(actx)
	if err != nil {
		return nil, b.acquireFailed(err, start, timedOut())
	}
	b.observeWait(start)
	return c, nil
}

func (b *box) acquireFailed(err error, start time.Time, timedOut bool) error {
	if timedOut {
		b.deps.Metrics.AcquireTimeouts.WithLabelValues(b.label).Inc()
		return &AcquireTimeoutError{Pool: b.label, Waited: time.Since(start)}
	}
	return err
}

func (b *box) observeWait(start time.Time) {
	b.deps.Metrics.AcquireWait.WithLabelValues(b.label).Observe(time.Since(start).Seconds())
}

// tryIdle takes an idle connection without waiting, or returns nil.
func (b *box) tryIdle(ctx context.Context) *pgxpool.Conn {
	conns := b.pool.AcquireAllIdle(ctx)
	if len(conns) == 0 {
		return nil
	}
	for _, c := range conns[1:] {
		c.Release()
	}
	b.extraAcquire.Add(1)
	return conns[0]
}

func (b *box) lease(c *pgxpool.Conn, after func()) *Lease {
	return &Lease{Conn: c.Conn(), Pool: b.label, Shard: -1, release: func() {
		c.Release()
		if after != nil {
			after()
		}
	}}
}

// warm opens n connections at once and pings each, so they are all established before
// the caller proceeds; they stay in the pool as idle connections.
func (b *box) warm(ctx context.Context, n int) error {
	conns := make([]*pgxpool.Conn, n)
	errs := make([]error, n)
	done := make(chan int, n)
	for i := range n {
		go func() {
			c, err := b.pool.Acquire(ctx)
			if err == nil {
				err = c.Ping(ctx)
			}
			conns[i], errs[i] = c, err
			done <- i
		}()
	}
	for range n {
		<-done
	}
	var first error
	for i, c := range conns {
		if c != nil {
			c.Release()
		}
		if errs[i] != nil && first == nil {
			first = errs[i]
		}
	}
	return first
}

func (b *box) stats() metrics.PoolStats {
	s := b.pool.Stat()
	limit := int64(s.MaxConns())
	if b.limit != nil {
		limit = b.limit()
	}
	return metrics.PoolStats{
		Pool:                 b.label,
		Total:                int64(s.TotalConns()),
		Idle:                 int64(s.IdleConns()),
		Acquired:             int64(s.AcquiredConns()),
		Constructing:         int64(s.ConstructingConns()),
		Max:                  limit,
		Waiting:              b.waiting.Load(),
		AcquireCount:         s.AcquireCount() + b.extraAcquire.Load(),
		EmptyAcquireCount:    s.EmptyAcquireCount() + b.extraEmpty.Load(),
		CanceledAcquireCount: s.CanceledAcquireCount() + b.extraCanceled.Load(),
		Created:              b.created.Load(),
		Closed:               b.closed.Load(),
	}
}
