package pools

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"poolbench.dev/lab-target/internal/metrics"
)

// poolPerRequest builds a fresh pgxpool for every request and closes it afterwards: the
// mistake of seed 004 test 2. With --min-conns > 0 every throwaway pool also opens that
// many connections in the background, which is what pushed the seed's database over its
// connection limit.
type poolPerRequest struct {
	deps Deps
	pc   *pgxpool.Config

	perRequestCounts
	created, closed atomic.Int64
}

func newPoolPerRequest(d Deps) (*poolPerRequest, error) {
	p := &poolPerRequest{deps: d}
	pc, err := poolConfig(d, "main", d.Cfg.MinConns, &p.created, &p.closed)
	if err != nil {
		return nil, err
	}
	p.pc = pc
	return p, nil
}

func (p *poolPerRequest) Name() string                { return "pool-per-request" }
func (p *poolPerRequest) Shards() int                 { return 0 }
func (p *poolPerRequest) Start(context.Context) error { return nil }

func (p *poolPerRequest) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	start := time.Now()
	pool, err := pgxpool.NewWithConfig(ctx, p.pc.Copy())
	if err != nil {
		return nil, err
	}
	p.pools.Add(1)
	actx, cancel, timedOut := acquireContext(ctx, p.deps.Cfg.AcquireTimeout)
	defer cancel()
	c, err := pool.Acquire(actx)
	if err != nil {
		pool.Close()
		p.pools.Add(-1)
		return nil, p.acquireFailed(ctx, p.deps, start, timedOut(), err)
	}
	p.leased(p.deps, start)
	return &Lease{Conn: c.Conn(), Pool: "main", Shard: -1, release: func() {
		c.Release()
		pool.Close()
		p.acquired.Add(-1)
		p.pools.Add(-1)
	}}, nil
}

func (p *poolPerRequest) Stats() []metrics.PoolStats {
	return []metrics.PoolStats{p.stats(p.deps, p.created.Load(), p.closed.Load(), 0)}
}

func (p *poolPerRequest) Close() {}

// perRequestCounts are what a pool-per-request strategy counts itself: the throwaway pools alive,
// the leases out, the acquires done and those cancelled by their request.
type perRequestCounts struct {
	pools, acquired, acquires, cancelled atomic.Int64
}

// acquireFailed counts an acquire from a throwaway pool that failed (its pool already closed)
// and says why: a timeout as an AcquireTimeoutError, anything else as err.
func (c *perRequestCounts) acquireFailed(ctx context.Context, d Deps, start time.Time, timedOut bool, err error) error {
	if timedOut {
		d.Metrics.AcquireTimeouts.WithLabelValues("main").Inc()
		return &AcquireTimeoutError{Pool: "main", Waited: time.Since(start)}
	}
	if ctx.Err() != nil {
		c.cancelled.Add(1)
	}
	return err
}

// leased counts an acquire that got its connection after waiting since start.
func (c *perRequestCounts) leased(d Deps, start time.Time) {
	c.acquires.Add(1)
	c.acquired.Add(1)
	d.Metrics.AcquireWait.WithLabelValues("main").Observe(time.Since(start).Seconds())
}

// stats is the one "main" pool the strategy reports, from its connections created, closed and
// being opened. A brand-new pool never has an idle connection, so every acquire waits.
func (c *perRequestCounts) stats(d Deps, created, closed, constructing int64) metrics.PoolStats {
	n := c.acquires.Load()
	open := max(created-closed, 0)
	acq := c.acquired.Load()
	return metrics.PoolStats{
		Pool: "main", Total: open + constructing, Idle: max(open-acq, 0), Acquired: acq,
		Constructing: constructing, Max: int64(d.Cfg.MaxConns) * max(c.pools.Load(), 1),
		AcquireCount: n, EmptyAcquireCount: n, CanceledAcquireCount: c.cancelled.Load(),
		Created: created, Closed: closed,
	}
}
