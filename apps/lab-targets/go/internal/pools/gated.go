package pools

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"poolbench.dev/lab-target/internal/metrics"
)

// gated is a pgxpool behind a priority gate. The priority strategy (seed 003 #4) uses it
// with a fixed limit = --max-conns; adaptive (seed 003 #7) moves the limit (adaptive.go).
type gated struct {
	name string
	b    *box
	g    *gate

	// Acquire waits finished since the adaptive controller last looked.
	waitSumNs, waitN atomic.Int64
}

func newGated(d Deps, name string, limit int, tune func(*pgxpool.Config)) (*gated, error) {
	b, err := newBox(d, "main", tune)
	if err != nil {
		return nil, err
	}
	s := &gated{name: name, b: b, g: newGate(limit)}
	b.limit = func() int64 { return int64(s.g.snapshot(false).limit) }
	return s, nil
}

func (s *gated) Name() string { return s.name }
func (s *gated) Shards() int  { return 0 }

func (s *gated) Acquire(ctx context.Context, r Request) (*Lease, error) {
	b := s.b
	b.waiting.Add(1)
	defer b.waiting.Add(-1)
	start := time.Now()
	actx, cancel, timedOut := acquireContext(ctx, b.deps.Cfg.AcquireTimeout)
	defer cancel()

	waited, err := s.g.acquire(actx, r.High)
	s.recordWait(start)
	if waited {
		b.extraEmpty.Add(1)
	}
	if err != nil {
		b.extraCanceled.Add(1)
		return nil, b.acquireFailed(err, start, timedOut())
	}
	c, err := b.pool.Acquire(actx)
	if err != nil {
		s.g.release()
		return nil, b.acquireFailed(err, start, timedOut())
	}
	b.observeWait(start)
	prio := "normal"
	if r.High {
		prio = "high"
	}
	b.deps.Metrics.PriorityWait.WithLabelValues(prio).Observe(time.Since(start).Seconds())
	return b.lease(c, s.g.release), nil
}

func (s *gated) recordWait(start time.Time) {
	s.waitSumNs.Add(int64(time.Since(start)))
	s.waitN.Add(1)
}

func (s *gated) Stats() []metrics.PoolStats { return []metrics.PoolStats{s.b.stats()} }

func newPriority(d Deps) (*gated, error) {
	return newGated(d, "priority", d.Cfg.MaxConns, nil)
}

type priorityStrategy struct{ *gated }

func (p priorityStrategy) Start(context.Context) error { return nil }
func (p priorityStrategy) Close()                      { p.b.pool.Close() }
