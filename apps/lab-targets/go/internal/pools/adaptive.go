package pools

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// adaptive is seed 003's "hybrid adaptive" pool: a priority gate whose limit starts at
// --initial-conns (opened before ready), grows by --grow-step when the average acquire wait
// over a --check-interval exceeds --grow-wait-threshold, and shrinks by --shrink-step after
// the pool has had spare capacity for --shrink-idle, always within [max(min,1), max].
// Shrinking closes the surplus idle connections, so both directions show in pg_stat_activity.
type adaptive struct {
	*gated
	stop      chan struct{}
	spareFrom time.Time // start of the current stretch with spare capacity
}

func newAdaptive(d Deps) (*adaptive, error) {
	// pgxpool's own MinConns and idle timeout stay off: its background refill would race
	// with the warm-up and its idle reaping with the controller. Here the limit is the
	// size: opened at Start and on demand up to it, trimmed to it on shrink, never below
	// max(min,1).
	g, err := newGated(d, "adaptive", d.Cfg.InitialConns, func(pc *pgxpool.Config) {
		pc.MaxConnIdleTime = never
	})
	if err != nil {
		return nil, err
	}
	a := &adaptive{gated: g, stop: make(chan struct{})}
	go a.loop()
	return a, nil
}

func (a *adaptive) Start(ctx context.Context) error {
	return a.b.warm(ctx, a.g.snapshot(false).limit)
}

func (a *adaptive) loop() { every(a.stop, a.b.deps.Cfg.CheckInterval, a.check) }

func (a *adaptive) check(now time.Time) {
	cfg := a.b.deps.Cfg
	s := a.g.snapshot(true)
	// Requests still queued count with the time they have waited so far, so a pool that
	// is stuck (nobody finishing) still grows.
	n := a.waitN.Swap(0) + int64(s.waiting)
	sum := time.Duration(a.waitSumNs.Swap(0)) + s.waitingFor
	lower := max(cfg.MinConns, 1)

	switch {
	case n > 0 && sum/time.Duration(n) > cfg.GrowWaitThreshold && s.limit < cfg.MaxConns:
		a.resize(s.limit, min(s.limit+cfg.GrowStep, cfg.MaxConns), "up")
		a.spareFrom = time.Time{}
	case s.peakInUse < s.limit && s.waiting == 0:
		if a.spareFrom.IsZero() {
			a.spareFrom = now
		} else if now.Sub(a.spareFrom) >= cfg.ShrinkIdle && s.limit > lower {
			a.resize(s.limit, max(s.limit-cfg.ShrinkStep, lower), "down")
			a.spareFrom = now
		}
	default:
		a.spareFrom = time.Time{}
	}
}

func (a *adaptive) resize(from, to int, direction string) {
	a.g.setLimit(to)
	a.b.deps.Metrics.Resizes.WithLabelValues("main", direction).Inc()
	a.b.deps.Log.Info("adaptive pool resized", "from", from, "to", to)
	if direction == "down" {
		a.trim(to)
	}
}

// trim closes idle connections until the pool holds at most limit connections.
func (a *adaptive) trim(limit int) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	excess := int(a.b.pool.Stat().TotalConns()) - limit
	for _, c := range a.b.pool.AcquireAllIdle(ctx) {
		if excess > 0 {
			_ = c.Hijack().Close(ctx)
			a.b.closed.Add(1)
			excess--
			continue
		}
		c.Release()
	}
}

func (a *adaptive) Close() {
	close(a.stop)
	a.b.pool.Close()
}
