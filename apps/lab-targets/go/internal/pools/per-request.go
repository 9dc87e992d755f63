package pools

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"poolbench.dev/lab-target/internal/metrics"
)

// perRequest opens a connection for every request and closes it afterwards: the
// "open and close" approach of seed 004 test 1. There is no pool, so nothing bounds how
// many connections the database sees except the number of concurrent requests.
type perRequest struct {
	deps Deps
	cc   *pgx.ConnConfig

	open, constructing, acquired         atomic.Int64
	created, closed, acquires, cancelled atomic.Int64
}

func newPerRequest(d Deps) (*perRequest, error) {
	cc, err := ConnConfig(d.Cfg, "main")
	if err != nil {
		return nil, err
	}
	return &perRequest{deps: d, cc: cc}, nil
}

func (p *perRequest) Name() string                { return "per-request" }
func (p *perRequest) Shards() int                 { return 0 }
func (p *perRequest) Start(context.Context) error { return nil }

func (p *perRequest) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	start := time.Now()
	p.constructing.Add(1)
	conn, err := pgx.ConnectConfig(ctx, p.cc)
	p.constructing.Add(-1)
	if err != nil {
		if ctx.Err() != nil {
			p.cancelled.Add(1)
		}
		return nil, err
	}
	p.created.Add(1)
	p.open.Add(1)
	p.acquired.Add(1)
	p.acquires.Add(1)
	p.deps.Metrics.AcquireWait.WithLabelValues("main").Observe(time.Since(start).Seconds())
	return &Lease{Conn: conn, Pool: "main", Shard: -1, release: func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = conn.Close(ctx)
		p.acquired.Add(-1)
		p.open.Add(-1)
		p.closed.Add(1)
	}}, nil
}

func (p *perRequest) Stats() []metrics.PoolStats {
	n := p.acquires.Load()
	return []metrics.PoolStats{{
		Pool: "main", Total: p.open.Load() + p.constructing.Load(), Acquired: p.acquired.Load(),
		Constructing: p.constructing.Load(), Waiting: p.constructing.Load(),
		// Every acquire has to open a connection, so every acquire waits.
		AcquireCount: n, EmptyAcquireCount: n, CanceledAcquireCount: p.cancelled.Load(),
		Created: p.created.Load(), Closed: p.closed.Load(),
	}}
}

func (p *perRequest) Close() {}
