// Package labdb owns the lab data set: its schema, the idempotent setup, the queries the
// endpoints run and the classification of database errors.
package labdb

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"poolbench.dev/lab-target/internal/metrics"
)

// SQLStates the lab target reacts to.
const (
	TooManyConnections = "53300" // "sorry, too many clients already" and per-role/database limits
	UndefinedTable     = "42P01"
	UndefinedColumn    = "42703"
	QueryCanceled      = "57014" // statement_timeout
	InvalidCatalogName = "3D000" // database does not exist
)

// SQLState returns the server's SQLSTATE (on MariaDB: the error number, e.g. "1146"), or
// "none" when the error did not come from the server (refused connection, timeout, TLS).
func SQLState(err error) string {
	if code, ok := mysqlCode(err); ok {
		return code
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return "none"
}

// Record counts err in labtarget_db_errors_total (and the too-many-clients counter).
// A request the client abandoned is not a database error and is not counted.
func Record(m *metrics.Metrics, err error) {
	if err == nil || errors.Is(err, context.Canceled) {
		return
	}
	code := SQLState(err)
	m.DBErrors.WithLabelValues(code).Inc()
	if IsTooManyClients(code) {
		m.TooManyClients.Inc()
	}
}
