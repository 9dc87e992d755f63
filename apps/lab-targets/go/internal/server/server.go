// Package server holds the lab target's HTTP endpoints.
package server

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/metrics"
	"poolbench.dev/lab-target/internal/pools"
	"poolbench.dev/lab-target/internal/upstream"
)

// Server is the lab target's HTTP face. Upstream may be nil (no --upstream-url).
type Server struct {
	Cfg      *config.Config
	Strategy pools.Strategy
	Metrics  *metrics.Metrics
	Upstream *upstream.Client
	Ready    *Readiness
	Log      *slog.Logger

	rr     atomic.Uint64
	errLog rateLimited
}

// Handler routes every endpoint through the timing middleware.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.route(mux, "GET /health", "health", s.health)
	s.route(mux, "GET /roles", "roles", s.roles)
	s.route(mux, "GET /query", "query", s.query)
	s.route(mux, "GET /work", "work", s.work)
	s.route(mux, "POST /work", "work", s.work)
	s.route(mux, "POST /upload", "upload", s.upload)
	s.route(mux, "POST /login", "login", s.login)
	s.route(mux, "GET /me", "me", s.me)
	s.route(mux, "GET /ready", "ready", s.ready)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.Metrics.Registry, promhttp.HandlerOpts{}))
	return mux
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (s *Server) route(mux *http.ServeMux, pattern, name string, h http.HandlerFunc) {
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(r.Context(), s.Cfg.RequestTimeout)
		defer cancel()
		sw := &statusWriter{ResponseWriter: w}
		sw.Header().Set("X-Instance-Id", s.Cfg.InstanceID)
		h(sw, r.WithContext(ctx))
		code := sw.code
		if code == 0 {
			code = statusClientClosed
		}
		s.Metrics.HTTPDuration.WithLabelValues(name, strconv.Itoa(code)).Observe(time.Since(start).Seconds())
	})
}

// request reads what the strategy needs from the HTTP request. ok=false: 400 was sent.
func (s *Server) request(w http.ResponseWriter, r *http.Request) (pools.Request, bool) {
	q := r.URL.Query()
	pr := pools.Request{
		High: strings.EqualFold(r.Header.Get("X-Priority"), "high") || strings.EqualFold(q.Get("priority"), "high"),
	}
	n := s.Strategy.Shards()
	if n == 0 {
		return pr, true
	}
	switch {
	case q.Get("shard") != "":
		v, err := strconv.Atoi(q.Get("shard"))
		if err != nil || v < 0 || v >= n {
			writeError(w, http.StatusBadRequest, "bad_shard", "shard must be an integer in [0,"+strconv.Itoa(n)+")")
			return pr, false
		}
		pr.Shard = v
	case q.Get("key") != "":
		h := fnv.New32a()
		_, _ = h.Write([]byte(q.Get("key")))
		pr.Shard = int(h.Sum32() % uint32(n))
	default:
		pr.Shard = int(s.rr.Add(1) % uint64(n))
	}
	return pr, true
}

// lease acquires a connection or answers the error; nil means the response was sent.
func (s *Server) lease(w http.ResponseWriter, r *http.Request) *pools.Lease {
	pr, ok := s.request(w, r)
	if !ok {
		return nil
	}
	l, err := s.Strategy.Acquire(r.Context(), pr)
	if err != nil {
		s.fail(w, r, err)
		return nil
	}
	w.Header().Set("X-Pool", l.Pool)
	return l
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, errCode, msg string) {
	writeJSON(w, code, map[string]string{"error": errCode, "message": msg})
}

func intParam(r *http.Request, name string, def, lo, hi int) (int, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, false
	}
	return n, true
}
