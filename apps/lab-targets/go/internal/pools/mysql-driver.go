package pools

import (
	"context"
	"database/sql/driver"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/labdb"
)

// MySQLConfig is the driver configuration every MariaDB connection of this instance
// shares: the DSN, the connect timeout and the statement timeout (max_statement_time).
func MySQLConfig(cfg *config.Config) (*mysql.Config, error) {
	mc, err := labdb.MySQLConfig(cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	labdb.MySQLSessionSettings(mc, cfg.ConnectTimeout, cfg.StatementTimeout)
	return mc, nil
}

// mysqlConnector opens connections with the driver configuration of MySQLConfig.
func mysqlConnector(cfg *config.Config) (driver.Connector, error) {
	mc, err := MySQLConfig(cfg)
	if err != nil {
		return nil, err
	}
	return mysql.NewConnector(mc)
}

// MySQLProbe is the readiness check on MariaDB: its own short-lived connection straight
// from the driver (never a pool's), pinged and closed.
func MySQLProbe(cfg *config.Config) (func(context.Context) error, error) {
	connector, err := mysqlConnector(cfg)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		c, err := connector.Connect(ctx)
		if err != nil {
			return err
		}
		defer c.Close()
		return c.(driver.Pinger).Ping(ctx)
	}, nil
}

// countingConnector wraps the MySQL connector to count what database/sql does not report:
// connections being opened, opened and closed (the pgxpool hooks' counterpart). It also
// bounds the whole connect (dial + handshake) by --connect-timeout.
type countingConnector struct {
	inner          driver.Connector
	connectTimeout time.Duration

	constructing, created, closed atomic.Int64
}

func newCountingConnector(cfg *config.Config) (*countingConnector, error) {
	inner, err := mysqlConnector(cfg)
	if err != nil {
		return nil, err
	}
	return &countingConnector{inner: inner, connectTimeout: cfg.ConnectTimeout}, nil
}

func (c *countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c.constructing.Add(1)
	defer c.constructing.Add(-1)
	if c.connectTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.connectTimeout)
		defer cancel()
	}
	dc, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	c.created.Add(1)
	return &countedConn{inner: dc, closed: &c.closed}, nil
}

func (c *countingConnector) Driver() driver.Driver { return c.inner.Driver() }

// countedConn forwards every interface database/sql looks for on the MySQL connection
// (so interpolated queries, contexts, session reset and validation work as unwrapped)
// and counts the close.
type countedConn struct {
	inner  driver.Conn
	closed *atomic.Int64
	once   sync.Once
}

var (
	_ driver.ConnBeginTx        = (*countedConn)(nil)
	_ driver.ConnPrepareContext = (*countedConn)(nil)
	_ driver.ExecerContext      = (*countedConn)(nil)
	_ driver.QueryerContext     = (*countedConn)(nil)
	_ driver.Pinger             = (*countedConn)(nil)
	_ driver.SessionResetter    = (*countedConn)(nil)
	_ driver.Validator          = (*countedConn)(nil)
	_ driver.NamedValueChecker  = (*countedConn)(nil)
)

func (c *countedConn) Prepare(q string) (driver.Stmt, error) { return c.inner.Prepare(q) }
func (c *countedConn) Begin() (driver.Tx, error)             { return c.inner.Begin() } //nolint:staticcheck // driver.Conn requires it

func (c *countedConn) Close() error {
	err := c.inner.Close()
	c.once.Do(func() { c.closed.Add(1) })
	return err
}

func (c *countedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *countedConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	return c.inner.(driver.ConnPrepareContext).PrepareContext(ctx, q)
}

func (c *countedConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	return c.inner.(driver.ExecerContext).ExecContext(ctx, q, args)
}

func (c *countedConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	return c.inner.(driver.QueryerContext).QueryContext(ctx, q, args)
}

func (c *countedConn) Ping(ctx context.Context) error { return c.inner.(driver.Pinger).Ping(ctx) }

func (c *countedConn) ResetSession(ctx context.Context) error {
	return c.inner.(driver.SessionResetter).ResetSession(ctx)
}

func (c *countedConn) IsValid() bool { return c.inner.(driver.Validator).IsValid() }

func (c *countedConn) CheckNamedValue(nv *driver.NamedValue) error {
	return c.inner.(driver.NamedValueChecker).CheckNamedValue(nv)
}
