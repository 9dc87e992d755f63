package labtest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/linkproxy"
)

func TestQueryStreamsRowsByFields(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) { c.MaxRows = 1000 })
	r := get(t, in.URL+"/query?rows=300&fields=12")
	var rows []map[string]any
	if err := json.Unmarshal(r.Body, &rows); err != nil || r.Code != http.StatusOK {
		t.Fatalf("query: %d, not a JSON array: %v", r.Code, err)
	}
	if len(rows) != 300 || len(rows[0]) != 13 || rows[299]["id"] != float64(300) {
		t.Fatalf("got %d rows of %d keys (last id %v), want 300 rows of id + 12 fields", len(rows), len(rows[0]), rows[299]["id"])
	}
	if _, ok := rows[0]["f4"].(float64); !ok {
		t.Fatalf("f4 should be a bigint column, got %T", rows[0]["f4"])
	}
	if r := get(t, in.URL+"/query?rows=1&fields=13"); r.Code != http.StatusBadRequest || r.json(t)["error"] != "too_many_fields" {
		t.Fatalf("fields beyond the table: %d %s", r.Code, r.Body)
	}
	if r := get(t, in.URL+"/query?rows=1001"); r.Code != http.StatusBadRequest {
		t.Fatalf("rows beyond --max-rows: %d %s", r.Code, r.Body)
	}
}

func TestRolesReturnsEveryRoleWithItsPermissions(t *testing.T) {
	t.Parallel()
	in := startInstance(t, nil)
	r := get(t, in.URL+"/roles")
	var roles []struct {
		ID          int `json:"id"`
		Permissions []struct {
			ID int `json:"id"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(r.Body, &roles); err != nil || r.Code != http.StatusOK {
		t.Fatalf("roles: %d %v %s", r.Code, err, r.Body)
	}
	if len(roles) != testSizes.Roles {
		t.Fatalf("%d roles, want %d", len(roles), testSizes.Roles)
	}
	var links int
	if err := admin.QueryRow(context.Background(), `SELECT count(*) FROM lab.role_permissions`).Scan(&links); err != nil {
		t.Fatal(err)
	}
	got := 0
	for _, role := range roles {
		if len(role.Permissions) == 0 {
			t.Fatalf("role %d has no permissions", role.ID)
		}
		got += len(role.Permissions)
	}
	if got != links {
		t.Fatalf("%d role-permission pairs in the answer, %d in the join table", got, links)
	}
}

func TestWorkHoldsAConnectionAndWrites(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) { c.MaxWork = time.Second })
	var before int64
	_ = admin.QueryRow(context.Background(), `SELECT coalesce(sum(hits),0) FROM lab.counters`).Scan(&before)
	r := do(t, http.MethodPost, in.URL+"/work?ms=20", nil, nil)
	if r.Code != http.StatusOK || r.json(t)["write"] != true {
		t.Fatalf("POST /work: %d %s", r.Code, r.Body)
	}
	var after int64
	_ = admin.QueryRow(context.Background(), `SELECT coalesce(sum(hits),0) FROM lab.counters`).Scan(&after)
	if after <= before {
		t.Fatalf("POST /work did not update a counter (%d -> %d)", before, after)
	}
	if r := get(t, in.URL+"/work?ms=1001"); r.Code != http.StatusBadRequest {
		t.Fatalf("ms beyond --max-work: %d", r.Code)
	}
}

func TestStatementTimeoutAnswers504(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) { c.StatementTimeout = 100 * time.Millisecond })
	r := get(t, in.URL+"/work?ms=1000")
	if r.Code != http.StatusGatewayTimeout || r.json(t)["error"] != "statement_timeout" {
		t.Fatalf("want 504 statement_timeout, got %d %s", r.Code, r.Body)
	}
	if v := metric(t, in, `labtarget_db_errors_total{sqlstate="57014"}`); v != 1 {
		t.Fatalf("db_errors_total{57014} = %v", v)
	}
}

func TestUploadWithoutUpstreamSaysSo(t *testing.T) {
	t.Parallel()
	in := startInstance(t, nil)
	r := do(t, http.MethodPost, in.URL+"/upload", nil, strings.NewReader("x"))
	if r.Code != http.StatusServiceUnavailable || r.json(t)["error"] != "no_upstream" {
		t.Fatalf("%d %s", r.Code, r.Body)
	}
}

// freePort reserves a loopback port nobody listens on (yet).
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// proxy forwards TCP from addr to the real Postgres (linkproxy without delay), standing in
// for a database that comes up late. Cleanup cuts every forwarded connection.
func proxy(t *testing.T, addr, to string) {
	p, err := linkproxy.Start(linkproxy.Options{Addr: addr, Upstream: to})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
}

func TestReadyReportsDatabaseDownThenRecovers(t *testing.T) {
	t.Parallel()
	addr := freePort(t)
	real := dsnHostPort(testDSN())
	dsn := strings.Replace(testDSN(), real, addr, 1)
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "prewarm"
		c.MaxConns = 2
		c.DatabaseURL = dsn
		c.ConnectTimeout = time.Second
	})
	waitFor(t, 5*time.Second, "a not-ready answer naming the database", func() bool {
		r := get(t, in.URL+"/ready")
		return r.Code == http.StatusServiceUnavailable && strings.Contains(r.json(t)["reason"].(string), "database unreachable")
	})
	if r := get(t, in.URL+"/health"); r.Code != http.StatusServiceUnavailable || r.json(t)["error"] != "db_unavailable" {
		t.Fatalf("health with the database down: %d %s", r.Code, r.Body)
	}
	proxy(t, addr, real)
	waitReady(t, in)
	if n := dbConns(t, in.AppName); n != 2 {
		t.Fatalf("after recovery prewarm has %d connections, want 2", n)
	}
}

// dsnHostPort returns the host:port of a postgres:// URL.
func dsnHostPort(dsn string) string {
	rest := dsn[strings.LastIndex(dsn, "@")+1:]
	return rest[:strings.IndexAny(rest, "/?")]
}

func TestInstancesSideBySideKeepTheirOwnConnections(t *testing.T) {
	t.Parallel()
	names := make([]string, 3)
	for i := range 3 {
		in := startInstance(t, func(c *config.Config) { c.Strategy = "prewarm"; c.MaxConns = 2 })
		waitReady(t, in)
		names[i] = in.AppName
	}
	for _, n := range names {
		if got := dbConns(t, n); got != 2 {
			t.Fatalf("instance %s has %d connections, want 2", n, got)
		}
	}
}
