package server

import (
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"poolbench.dev/lab-target/internal/labdb"
)

// health pings the database through the strategy (seed 004's GET /health).
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	l := s.lease(w, r)
	if l == nil {
		return
	}
	var err error
	if l.SQL != nil {
		err = l.SQL.PingContext(r.Context())
	} else {
		err = l.Conn.Ping(r.Context())
	}
	l.Release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "pool": l.Pool, "instanceId": s.Cfg.InstanceID})
}

// roles returns every role with its permissions (seed 002's GET /roles).
func (s *Server) roles(w http.ResponseWriter, r *http.Request) {
	l := s.lease(w, r)
	if l == nil {
		return
	}
	var roles []labdb.Role
	var err error
	if l.SQL != nil {
		roles, err = labdb.RolesMySQL(r.Context(), l.SQL)
	} else {
		roles, err = labdb.Roles(r.Context(), l.Conn)
	}
	l.Release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, roles)
}

// work holds a connection for ?ms= (seed 003's 10-800 ms queries). POST (or ?write=1)
// also updates a random counter row in the same transaction, for read/write mixes.
func (s *Server) work(w http.ResponseWriter, r *http.Request) {
	maxMs := int(s.Cfg.MaxWork.Milliseconds())
	ms, ok := intParam(r, "ms", 100, 0, maxMs)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad_ms", "ms must be an integer in [0, --max-work]")
		return
	}
	write := r.Method == http.MethodPost || r.URL.Query().Get("write") == "1"
	l := s.lease(w, r)
	if l == nil {
		return
	}
	start := time.Now()
	var err error
	if l.SQL != nil {
		err = runWorkMySQL(r.Context(), l.SQL, ms, write)
	} else {
		err = s.runWork(r, l.Conn, ms, write)
	}
	l.Release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ms": ms, "write": write, "pool": l.Pool, "heldMs": time.Since(start).Milliseconds()})
}

func (s *Server) runWork(r *http.Request, conn *pgx.Conn, ms int, write bool) error {
	ctx := r.Context()
	secs := float64(ms) / 1000
	if !write {
		_, err := conn.Exec(ctx, labdb.WorkRead, secs)
		return err
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, labdb.WorkWriteSQL, randomCounter()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, labdb.WorkRead, secs)
		return err
	})
}

// ready answers 200 only when start-up work is done and the database answers.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ok, reason := s.Ready.Check(r.Context())
	body := map[string]any{
		"ready": ok, "strategy": s.Cfg.Strategy, "instanceId": s.Cfg.InstanceID,
		"applicationName": s.Cfg.AppName, "pools": s.Strategy.Stats(),
	}
	code := http.StatusOK
	if !ok {
		body["reason"] = reason
		code = http.StatusServiceUnavailable
	}
	writeJSON(w, code, body)
}

func randomCounter() int { return 1 + rand.IntN(labdb.CounterRows) }
