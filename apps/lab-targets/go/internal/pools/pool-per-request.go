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

	pools, acquired                      atomic.Int64
	created, closed, acquires, cancelled atomic.Int64
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
		if timedOut() {
			p.deps.Metrics.AcquireTimeouts.WithLabelValues("main").Inc()
			return nil, &AcquireTimeoutError{Pool: "main", Waited: time.Since(start)}
		}
		if ctx.Err() != nil {
			p.cancelled.Add(1)
		}
		return nil, err
	}
	p.acquires.Add(1)
	p.acquired.Add(1)
	p.deps.Metrics.AcquireWait.WithLabelValues("main").Observe(time.Since(start).Seconds())
	return &Lease{Conn: c.Conn(), Pool: "main", Shard: -1, release: func() {
		c.Release()
		pool.Close()
		p.acquired.Add(-1)
		p.pools.Add(-1)
	}}, nil
}

func (p *poolPerRequest) Stats() []metrics.PoolStats {
	n := p.acquires.Load()
	open := max(p.created.Load()-p.closed.Load(), 0)
	acq := p.acquired.Load()
	return []metrics.PoolStats{{
		Pool: "main", Total: open, Idle: max(open-acq, 0), Acquired: acq,
		Max: int64(p.deps.Cfg.MaxConns) * max(p.pools.Load(), 1),
		// A brand-new pool never has an idle connection, so every acquire waits.
		AcquireCount: n, EmptyAcquireCount: n, CanceledAcquireCount: p.cancelled.Load(),
		Created: p.created.Load(), Closed: p.closed.Load(),
	}}
}

func (p *poolPerRequest) Close() {}
