package pools

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"poolbench.dev/lab-target/internal/metrics"
)

// single is one pool with a strategy-specific sizing policy:
//   - lazy: connections on demand, closed after --idle-timeout (seed 000 "default").
//   - fixed: size = max, opened on demand and never closed for idleness (seed 003 #1).
//   - elastic: --min-conns kept open, grows to max, idle ones above min closed (seed 003 #2).
//   - prewarm: all max connections opened and pinged before ready, kept warm by
//     --keepalive pings (seed 000 prewarm, seed 003 #6).
type single struct {
	name string
	b    *box
	stop chan struct{}
}

func newSingle(d Deps, name string) (*single, error) {
	tune := func(pc *pgxpool.Config) {
		switch name {
		case "fixed":
			pc.MaxConnIdleTime = never
		case "elastic":
			pc.MinConns = int32(d.Cfg.MinConns)
		case "prewarm":
			pc.MinConns = pc.MaxConns
			pc.MaxConnIdleTime = never
		}
	}
	b, err := newBox(d, "main", tune)
	if err != nil {
		return nil, err
	}
	s := &single{name: name, b: b, stop: make(chan struct{})}
	if name == "prewarm" && d.Cfg.Keepalive > 0 {
		go s.keepalive(d.Cfg.Keepalive)
	}
	return s, nil
}

func (s *single) Name() string { return s.name }
func (s *single) Shards() int  { return 0 }

func (s *single) Start(ctx context.Context) error {
	if s.name != "prewarm" {
		return nil
	}
	return s.b.warm(ctx, s.b.deps.Cfg.MaxConns)
}

func (s *single) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	c, err := s.b.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return s.b.lease(c, nil), nil
}

// keepalive pings idle connections so a dead one is replaced before a request meets it.
func (s *single) keepalive(period time.Duration) {
	every(s.stop, period, func(time.Time) {
		ctx, cancel := context.WithTimeout(context.Background(), period)
		defer cancel()
		for _, c := range s.b.pool.AcquireAllIdle(ctx) {
			if err := c.Ping(ctx); err != nil {
				c.Hijack().Close(ctx) // pgxpool refills to MinConns on its next health check
				s.b.closed.Add(1)
				continue
			}
			c.Release()
		}
	})
}

func (s *single) Stats() []metrics.PoolStats { return []metrics.PoolStats{s.b.stats()} }

func (s *single) Close() {
	close(s.stop)
	s.b.pool.Close()
}
