package pools

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"poolbench.dev/lab-target/internal/metrics"
)

// On MariaDB every strategy is a database/sql pool over the MySQL driver (the pool a Go
// service would use there). database/sql keeps no minimum, so min-conns and prewarm are
// kept here: "touching" n connections (holding n at once, then returning them) opens the
// missing ones and resets the idle clock of the n most recently used, so only the
// connections above the minimum age out under --idle-timeout.

// myBox is one named database/sql pool plus the counters sql.DBStats does not keep.
type myBox struct {
	label string
	db    *sql.DB
	cc    *countingConnector
	deps  Deps
	// noAcquireTimeout: per-request opens a connection per request, like pgx.Connect,
	// bounded by the request and --connect-timeout only.
	noAcquireTimeout bool

	waiting, acquires, empty, canceled atomic.Int64
}

// myPoolSettings are database/sql's knobs: max open (0 = unbounded), max idle (<= 0 = keep
// none), idle time and lifetime (0 = never).
type myPoolSettings struct {
	maxOpen, maxIdle   int
	idleTime, lifetime time.Duration
}

func (s myPoolSettings) apply(db *sql.DB) {
	db.SetMaxOpenConns(s.maxOpen)
	db.SetMaxIdleConns(s.maxIdle)
	db.SetConnMaxIdleTime(s.idleTime)
	db.SetConnMaxLifetime(s.lifetime)
}

func newMyBox(d Deps, label string, cc *countingConnector, set myPoolSettings) *myBox {
	db := sql.OpenDB(cc)
	set.apply(db)
	return &myBox{label: label, db: db, cc: cc, deps: d}
}

// acquire waits for a connection, bounded by --acquire-timeout, and records the wait.
func (b *myBox) acquire(ctx context.Context) (*sql.Conn, error) {
	b.waiting.Add(1)
	defer b.waiting.Add(-1)
	start := time.Now()
	// database/sql does not say whether a connection was idle; looking first is close enough.
	empty := b.db.Stats().Idle == 0
	timeout := b.deps.Cfg.AcquireTimeout
	if b.noAcquireTimeout {
		timeout = 0
	}
	actx, cancel, timedOut := acquireContext(ctx, timeout)
	defer cancel()
	c, err := b.db.Conn(actx)
	if err != nil {
		if actx.Err() != nil {
			b.canceled.Add(1)
		}
		if timedOut() {
			b.deps.Metrics.AcquireTimeouts.WithLabelValues(b.label).Inc()
			return nil, &AcquireTimeoutError{Pool: b.label, Waited: time.Since(start)}
		}
		return nil, err
	}
	b.acquires.Add(1)
	if empty {
		b.empty.Add(1)
	}
	b.deps.Metrics.AcquireWait.WithLabelValues(b.label).Observe(time.Since(start).Seconds())
	return c, nil
}

func (b *myBox) lease(c *sql.Conn, after func()) *Lease {
	return &Lease{SQL: c, Pool: b.label, Shard: -1, release: func() {
		_ = c.Close()
		if after != nil {
			after()
		}
	}}
}

// touch holds n connections at once (opening what is missing), pings them when asked
// (a failed one is discarded, not returned to the pool) and returns them all. It fails
// unless all n were held.
func (b *myBox) touch(ctx context.Context, n int, ping bool) error {
	if n <= 0 {
		return nil
	}
	conns := make([]*sql.Conn, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c, err := b.db.Conn(ctx)
			if err == nil && ping {
				if err = c.PingContext(ctx); err != nil {
					_ = c.Raw(func(any) error { return driver.ErrBadConn }) // drop it
				}
			}
			conns[i], errs[i] = c, err
		})
	}
	wg.Wait()
	var first error
	for i, c := range conns {
		if c != nil {
			_ = c.Close()
		}
		if errs[i] != nil && first == nil {
			first = errs[i]
		}
	}
	return first
}

func (b *myBox) stats() metrics.PoolStats {
	s := b.db.Stats()
	cons := b.cc.constructing.Load()
	return metrics.PoolStats{
		Pool:  b.label,
		Total: int64(s.OpenConnections),
		Idle:  int64(s.Idle),
		// InUse counts connections being opened as well (database/sql reserves them first).
		Acquired:             max(int64(s.InUse)-cons, 0),
		Constructing:         cons,
		Max:                  int64(s.MaxOpenConnections),
		Waiting:              b.waiting.Load(),
		AcquireCount:         b.acquires.Load(),
		EmptyAcquireCount:    b.empty.Load(),
		CanceledAcquireCount: b.canceled.Load(),
		Created:              b.cc.created.Load(),
		Closed:               b.cc.closed.Load(),
	}
}

// mySingle is lazy, fixed, elastic or prewarm on MariaDB (see single for Postgres):
//   - lazy: on demand, idle ones closed after --idle-timeout.
//   - fixed: on demand up to max, never closed for idleness.
//   - elastic: --min-conns opened before ready and kept (topped up and kept fresh every
//     --health-check-period), grows to max, idle ones above min closed.
//   - prewarm: max opened and pinged before ready, topped up every --health-check-period,
//     idle ones pinged every --keepalive.
type mySingle struct {
	name string
	b    *myBox
	keep int // connections kept open (min) by the maintainer; 0 = none

	stop chan struct{}
	wg   sync.WaitGroup
}

func newMySingle(d Deps, name string) (*mySingle, error) {
	cc, err := newCountingConnector(d.Cfg)
	if err != nil {
		return nil, err
	}
	c := d.Cfg
	set := myPoolSettings{maxOpen: c.MaxConns, maxIdle: c.MaxConns, idleTime: c.IdleTimeout, lifetime: c.MaxLifetime}
	keep := 0
	switch name {
	case "fixed":
		set.idleTime = 0
	case "elastic":
		keep = c.MinConns
	case "prewarm":
		set.idleTime = 0
		keep = c.MaxConns
	}
	s := &mySingle{name: name, b: newMyBox(d, "main", cc, set), keep: keep, stop: make(chan struct{})}
	if keep > 0 {
		s.wg.Go(func() { s.maintain(c.HealthCheckPeriod, false) })
	}
	if name == "prewarm" && c.Keepalive > 0 {
		s.wg.Go(func() { s.maintain(c.Keepalive, true) })
	}
	return s, nil
}

func (s *mySingle) Name() string { return s.name }
func (s *mySingle) Shards() int  { return 0 }

// Start opens (and for prewarm pings) the kept connections before the instance is ready.
func (s *mySingle) Start(ctx context.Context) error {
	if s.keep == 0 {
		return nil
	}
	if err := s.b.touch(ctx, s.keep, s.name == "prewarm"); err != nil {
		return err
	}
	if n := s.b.db.Stats().OpenConnections; n < s.keep {
		return fmt.Errorf("%d of %d connections open after warm-up", n, s.keep)
	}
	return nil
}

// maintain tops the pool up to keep connections every period (ping: and pings them).
// Connections held by requests count towards keep, so a busy pool is left alone.
func (s *mySingle) maintain(period time.Duration, ping bool) {
	every(s.stop, period, func(time.Time) {
		n := s.keep - s.b.db.Stats().InUse
		if n <= 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(period, s.b.deps.Cfg.ConnectTimeout))
		defer cancel()
		go func() { // stop cancels a touch stuck on an unreachable database
			select {
			case <-s.stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		if err := s.b.touch(ctx, n, ping); err != nil && ctx.Err() == nil {
			s.b.deps.Log.Warn("keeping connections open failed", "pool", s.b.label, "want", s.keep, "err", err)
		}
	})
}

func (s *mySingle) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	c, err := s.b.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return s.b.lease(c, nil), nil
}

func (s *mySingle) Stats() []metrics.PoolStats { return []metrics.PoolStats{s.b.stats()} }

func (s *mySingle) Close() {
	close(s.stop)
	s.wg.Wait()
	_ = s.b.db.Close()
}

// myPerRequest opens a connection for every request and closes it when the request is
// done (seed 004 test 1): database/sql with no limit and no idle connections kept.
type myPerRequest struct{ b *myBox }

func newMyPerRequest(d Deps) (*myPerRequest, error) {
	cc, err := newCountingConnector(d.Cfg)
	if err != nil {
		return nil, err
	}
	b := newMyBox(d, "main", cc, myPoolSettings{maxOpen: 0, maxIdle: 0})
	b.noAcquireTimeout = true
	return &myPerRequest{b: b}, nil
}

func (p *myPerRequest) Name() string                { return "per-request" }
func (p *myPerRequest) Shards() int                 { return 0 }
func (p *myPerRequest) Start(context.Context) error { return nil }

func (p *myPerRequest) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	c, err := p.b.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return p.b.lease(c, nil), nil
}

func (p *myPerRequest) Stats() []metrics.PoolStats {
	s := p.b.stats()
	s.Waiting = s.Constructing // every acquire has to open a connection
	s.EmptyAcquireCount = s.AcquireCount
	return []metrics.PoolStats{s}
}

func (p *myPerRequest) Close() { _ = p.b.db.Close() }

// myPoolPerRequest builds a throwaway database/sql pool per request (seed 004 test 2);
// with --min-conns each one also opens that many connections in the background.
type myPoolPerRequest struct {
	deps Deps
	cc   *countingConnector
	set  myPoolSettings

	perRequestCounts
}

func newMyPoolPerRequest(d Deps) (*myPoolPerRequest, error) {
	cc, err := newCountingConnector(d.Cfg)
	if err != nil {
		return nil, err
	}
	c := d.Cfg
	return &myPoolPerRequest{deps: d, cc: cc, set: myPoolSettings{
		maxOpen: c.MaxConns, maxIdle: c.MaxConns, idleTime: c.IdleTimeout, lifetime: c.MaxLifetime,
	}}, nil
}

func (p *myPoolPerRequest) Name() string                { return "pool-per-request" }
func (p *myPoolPerRequest) Shards() int                 { return 0 }
func (p *myPoolPerRequest) Start(context.Context) error { return nil }

func (p *myPoolPerRequest) Acquire(ctx context.Context, _ Request) (*Lease, error) {
	start := time.Now()
	b := newMyBox(p.deps, "main", p.cc, p.set)
	p.pools.Add(1)
	bgCtx, bgCancel := context.WithCancel(context.Background())
	if n := p.deps.Cfg.MinConns; n > 0 {
		go func() { _ = b.touch(bgCtx, n, false) }()
	}
	closePool := func() {
		bgCancel()
		_ = b.db.Close()
		p.pools.Add(-1)
	}
	actx, cancel, timedOut := acquireContext(ctx, p.deps.Cfg.AcquireTimeout)
	defer cancel()
	c, err := b.db.Conn(actx)
	if err != nil {
		closePool()
		return nil, p.acquireFailed(ctx, p.deps, start, timedOut(), err)
	}
	p.leased(p.deps, start)
	return &Lease{SQL: c, Pool: "main", Shard: -1, release: func() {
		_ = c.Close()
		closePool()
		p.acquired.Add(-1)
	}}, nil
}

func (p *myPoolPerRequest) Stats() []metrics.PoolStats {
	cc := p.cc
	return []metrics.PoolStats{p.stats(p.deps, cc.created.Load(), cc.closed.Load(), cc.constructing.Load())}
}

func (p *myPoolPerRequest) Close() {}
