package pools

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"poolbench.dev/lab-target/internal/metrics"
)

// borrowing (seed 003 #5): requests use the primary pool; background jobs use a secondary
// pool that keeps --secondary-max-conns open. A request borrows an idle secondary
// connection only when the primary is exhausted (every connection held, none can be
// opened); otherwise, or when the secondary has nothing idle, it waits on the primary.
type borrowing struct {
	primary, secondary *box
	stop               chan struct{}
}

// backgroundJobSQL is the secondary pool's recurring job: a small report over lab data.
const backgroundJobSQL = `SELECT count(*), coalesce(sum(hits), 0) FROM lab.counters`

func newBorrowing(d Deps) (*borrowing, error) {
	primary, err := newBox(d, "primary", nil)
	if err != nil {
		return nil, err
	}
	secondary, err := newBox(d, "secondary", func(pc *pgxpool.Config) {
		pc.MaxConns = int32(d.Cfg.SecondaryMaxConns)
		pc.MinConns = pc.MaxConns
		pc.MaxConnIdleTime = never
	})
	if err != nil {
		primary.pool.Close()
		return nil, err
	}
	s := &borrowing{primary: primary, secondary: secondary, stop: make(chan struct{})}
	go s.background(d.Cfg.BackgroundInterval)
	return s, nil
}

func (s *borrowing) Name() string                { return "borrowing" }
func (s *borrowing) Shards() int                 { return 0 }
func (s *borrowing) Start(context.Context) error { return nil }

func (s *borrowing) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	st := s.primary.pool.Stat()
	exhausted := st.IdleConns() == 0 && st.TotalConns() >= st.MaxConns()
	if exhausted {
		start := time.Now()
		if c := s.secondary.tryIdle(ctx); c != nil {
			s.secondary.observeWait(start)
			s.secondary.deps.Metrics.Borrows.Inc()
			return s.secondary.lease(c, nil), nil
		}
	}
	c, err := s.primary.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return s.primary.lease(c, nil), nil
}

// background runs the secondary pool's own work, one job per interval.
func (s *borrowing) background(period time.Duration) {
	log := s.secondary.deps.Log
	var lastErr string
	every(s.stop, period, func(time.Time) {
		err := s.runJob(period)
		result := "ok"
		if err != nil {
			result = "error"
			if err.Error() != lastErr {
				log.Warn("background job failed", "err", err)
			}
			lastErr = err.Error()
		} else {
			lastErr = ""
		}
		s.secondary.deps.Metrics.BackgroundJobs.WithLabelValues(result).Inc()
	})
}

func (s *borrowing) runJob(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), max(timeout, time.Second))
	defer cancel()
	c, err := s.secondary.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	var n, hits int64
	return c.QueryRow(ctx, backgroundJobSQL).Scan(&n, &hits)
}

func (s *borrowing) Stats() []metrics.PoolStats {
	return []metrics.PoolStats{s.primary.stats(), s.secondary.stats()}
}

func (s *borrowing) Close() {
	close(s.stop)
	s.primary.pool.Close()
	s.secondary.pool.Close()
}
