// Package pools implements the connection-pool strategies the lab target can switch between.
// Every strategy hands out a Lease holding one connection (*pgx.Conn on Postgres,
// *sql.Conn on MariaDB); handlers never see the pool type.
package pools

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"poolbench.dev/lab-target/internal/metrics"
)

// Request carries what a strategy may use to choose or order an acquire.
type Request struct {
	High  bool // X-Priority: high (priority, adaptive)
	Shard int  // partitioned: shard in [0, Shards())
}

// Lease is one database connection held by a request. Release exactly once (extra calls are ignored).
type Lease struct {
	Conn  *pgx.Conn // Postgres
	SQL   *sql.Conn // MariaDB (database/sql + the MySQL driver); Conn is nil then
	Pool  string    // pool label that served it: main, shard-N, primary, secondary
	Shard int       // -1 unless partitioned

	once    sync.Once
	release func()
}

// Release returns the connection to its strategy.
func (l *Lease) Release() { l.once.Do(l.release) }

// Strategy is one pool strategy. Start does the start-up work that must finish before the
// instance reports ready; it is retried until it succeeds, so it must be safe to call again.
type Strategy interface {
	Name() string
	Shards() int
	Start(ctx context.Context) error
	Acquire(ctx context.Context, r Request) (*Lease, error)
	Stats() []metrics.PoolStats
	Close()
}

// every calls f at each tick of period (with the tick's time) until stop is closed: a
// strategy's background work (keepalive pings, topping up, sizing, its own jobs).
func every(stop <-chan struct{}, period time.Duration, f func(now time.Time)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			f(now)
		}
	}
}

// ErrAcquireTimeout matches every AcquireTimeoutError.
var ErrAcquireTimeout = errors.New("pool_acquire_timeout")

// AcquireTimeoutError is returned when --acquire-timeout elapsed before a connection was free.
type AcquireTimeoutError struct {
	Pool   string
	Waited time.Duration
}

func (e *AcquireTimeoutError) Error() string {
	return fmt.Sprintf("no connection from pool %s within %s", e.Pool, e.Waited.Round(time.Millisecond))
}

func (e *AcquireTimeoutError) Is(target error) bool { return target == ErrAcquireTimeout }

var errAcquireDeadline = errors.New("acquire timeout")

// acquireContext bounds an acquire by --acquire-timeout (0 = only the request's own deadline).
// timedOut reports whether that bound, rather than the request, ended the wait.
func acquireContext(ctx context.Context, d time.Duration) (actx context.Context, cancel context.CancelFunc, timedOut func() bool) {
	if d <= 0 {
		actx, cancel = context.WithCancel(ctx)
		return actx, cancel, func() bool { return false }
	}
	actx, cancel = context.WithTimeoutCause(ctx, d, errAcquireDeadline)
	return actx, cancel, func() bool { return errors.Is(context.Cause(actx), errAcquireDeadline) }
}
