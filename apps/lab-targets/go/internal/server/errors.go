package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"poolbench.dev/lab-target/internal/labdb"
	"poolbench.dev/lab-target/internal/pools"
)

// statusClientClosed labels requests whose client went away before an answer (nginx's 499).
const statusClientClosed = 499

// fail answers err with a stable error code and counts it.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ate *pools.AcquireTimeoutError
	if errors.As(err, &ate) {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{
			"error": "pool_acquire_timeout", "pool": ate.Pool, "waitedMs": ate.Waited.Milliseconds(),
			"message": ate.Error() + "; raise --max-conns or --acquire-timeout, or lower the load",
		})
		return
	}
	if r.Context().Err() != nil && errors.Is(context.Cause(r.Context()), context.Canceled) {
		return // client gone: nothing to answer, not a database error
	}
	labdb.Record(s.Metrics, err)
	s.errLog.log(s.Log, r.URL.Path, err)
	code := labdb.SQLState(err)
	switch {
	case errors.Is(r.Context().Err(), context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "request_timeout", "request exceeded --request-timeout: "+err.Error())
	case labdb.IsTooManyClients(code):
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "db_too_many_clients", "sqlstate": code, "message": err.Error()})
	case labdb.IsSchemaMissing(code):
		writeError(w, http.StatusServiceUnavailable, "lab_schema_missing", "lab data not found: run `lab-target setup --database-url=...` first")
	case labdb.IsStatementTimeout(code):
		writeJSON(w, http.StatusGatewayTimeout, map[string]string{"error": "statement_timeout", "sqlstate": code, "message": err.Error()})
	case code == "none":
		writeError(w, http.StatusServiceUnavailable, "db_unavailable", err.Error())
	default:
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "db_error", "sqlstate": code, "message": err.Error()})
	}
}

// rateLimited logs at most one error per second, with the number suppressed meanwhile,
// so a storm of "too many clients" does not flood stderr.
type rateLimited struct {
	mu         sync.Mutex
	last       time.Time
	suppressed int
}

func (l *rateLimited) log(log *slog.Logger, path string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if time.Since(l.last) < time.Second {
		l.suppressed++
		return
	}
	log.Warn("request failed", "path", path, "err", err, "suppressed", l.suppressed)
	l.last, l.suppressed = time.Now(), 0
}
