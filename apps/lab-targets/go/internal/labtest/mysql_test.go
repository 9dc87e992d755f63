package labtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/labdb"
)

func TestMariaDBSetupIsIdempotentAndSwapsAtomically(t *testing.T) {
	t.Parallel()
	admin := myAdmin(t)
	const db = "poolbench_lab_test_setup"
	dsn := myDSNWith(t, "", "", db)
	ctx := context.Background()
	small := labdb.Sizes{Rows: 50, Fields: 7, Roles: 3, Permissions: 8, Shards: 2}
	if res, err := labdb.SetupMySQL(ctx, dsn, small); err != nil {
		t.Fatal(err)
	} else if res.Ms < 0 {
		t.Fatal(res)
	}
	check := func(s labdb.Sizes) {
		t.Helper()
		if n := myCount(t, admin, "SELECT COUNT(*) FROM "+db+".wide_rows"); n != s.Rows {
			t.Fatalf("wide_rows has %d rows, want %d", n, s.Rows)
		}
		cols := myCount(t, admin, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"+db+"' AND TABLE_NAME = 'wide_rows'")
		if cols != s.Fields+1 {
			t.Fatalf("wide_rows has %d columns, want id + %d fields", cols, s.Fields)
		}
		if n := myCount(t, admin, "SELECT COUNT(*) FROM "+db+".roles"); n != s.Roles {
			t.Fatalf("%d roles, want %d", n, s.Roles)
		}
		bare := myCount(t, admin, "SELECT COUNT(*) FROM "+db+".roles r WHERE NOT EXISTS (SELECT 1 FROM "+db+".role_permissions rp JOIN "+db+".permissions p ON p.id = rp.permission_id WHERE rp.role_id = r.id)")
		if bare != 0 {
			t.Fatalf("%d roles without permissions through the join", bare)
		}
		if n := myCount(t, admin, "SELECT COUNT(*) FROM "+db+".counters"); n != labdb.CounterRows {
			t.Fatalf("%d counters", n)
		}
		// user0001 / pw-user0001 ... user1000 / pw-user1000, compared exactly (binary collation)
		users := myCount(t, admin, "SELECT COUNT(*) FROM "+db+".users WHERE username = CONCAT('user', LPAD(id, 4, '0')) AND password = CONCAT('pw-user', LPAD(id, 4, '0'))")
		exact := myCount(t, admin, "SELECT COUNT(*) FROM "+db+".users WHERE username IN ('USER0001', 'user0001 ')")
		if users != labdb.UserRows || myCount(t, admin, "SELECT MAX(id) FROM "+db+".users") != labdb.UserRows || exact != 0 {
			t.Fatalf("users: %d as expected (want %d), %d matched in another case or padded", users, labdb.UserRows, exact)
		}
		left := myCount(t, admin, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"+db+"' AND (TABLE_NAME LIKE '%\\_\\_new' OR TABLE_NAME LIKE '%\\_\\_old')")
		if left != 0 {
			t.Fatalf("%d __new/__old tables left behind", left)
		}
	}
	check(small)
	// Same values as Postgres' generator: md5('<id>-<field>') and (id * field * 7919) mod 1000003.
	var f1 string
	var f4 int64
	if err := admin.QueryRow("SELECT f1, f4 FROM "+db+".wide_rows WHERE id = 1").Scan(&f1, &f4); err != nil || f1 != "ea66c06c1e1c05fa9f1aa39d98dc5bc1" || f4 != 31676 {
		t.Fatalf("row 1: f1=%s f4=%d %v", f1, f4, err)
	}
	again, err := labdb.SetupMySQL(ctx, dsn, small)
	if err != nil || again.Changed {
		t.Fatalf("second setup with the same sizes must be a no-op: %+v %v", again, err)
	}

	// Rebuild with other sizes while readers keep reading: they must see the old or the new
	// data set, never a missing table or a half-filled one.
	bigger := labdb.Sizes{Rows: 3000, Fields: 9, Roles: 4, Permissions: 10, Shards: 2}
	var stop atomic.Bool
	var readErr atomic.Value
	var reads atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for !stop.Load() {
				var n int
				if err := admin.QueryRow("SELECT COUNT(*) FROM " + db + ".wide_rows").Scan(&n); err != nil {
					readErr.Store(err.Error())
					return
				}
				if n != small.Rows && n != bigger.Rows {
					readErr.Store(fmt.Sprintf("reader saw %d rows", n))
					return
				}
				reads.Add(1)
			}
		})
	}
	// Two setups at once: GET_LOCK serialises them, the second finds the new sizes in meta.
	results := make([]labdb.SetupResult, 2)
	errs := make([]error, 2)
	var sw sync.WaitGroup
	for i := range 2 {
		sw.Go(func() { results[i], errs[i] = labdb.SetupMySQL(ctx, dsn, bigger) })
	}
	sw.Wait()
	stop.Store(true)
	wg.Wait()
	if v := readErr.Load(); v != nil {
		t.Fatalf("a reader during the rebuild: %v", v)
	}
	if errs[0] != nil || errs[1] != nil || results[0].Changed == results[1].Changed {
		t.Fatalf("concurrent setups: %+v %v / %+v %v (want one rebuild and one no-op)", results[0], errs[0], results[1], errs[1])
	}
	if reads.Load() == 0 {
		t.Fatal("readers never read: the test proves nothing")
	}
	check(bigger)

	// A data set from before the users table (schema version 1) is rebuilt by the same sizes.
	if _, err := admin.Exec("DROP TABLE " + db + ".users"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("UPDATE " + db + ".meta SET `value` = '1' WHERE `key` = 'schema_version'"); err != nil {
		t.Fatal(err)
	}
	if res, err := labdb.SetupMySQL(ctx, dsn, bigger); err != nil || !res.Changed {
		t.Fatalf("setup over schema version 1 must rebuild: %+v %v", res, err)
	}
	check(bigger)
	if res, err := labdb.SetupMySQL(ctx, dsn, bigger); err != nil || res.Changed {
		t.Fatalf("setup at the current version must be a no-op: %+v %v", res, err)
	}
}

func TestMariaDBPrewarmHasMaxOpenWhenReady(t *testing.T) {
	t.Parallel()
	in, user := startMyInstance(t, 0, func(c *config.Config) {
		c.Strategy = "prewarm"
		c.MaxConns = 4
		c.Keepalive = 100 * time.Millisecond
		c.HealthCheckPeriod = 100 * time.Millisecond
	})
	waitReady(t, in)
	if v := metric(t, in, `labtarget_pool_total_conns{pool="main"}`); v != 4 {
		t.Fatalf("prewarm ready with %v pool connections, want 4", v)
	}
	waitConns(t, user, 4, 2*time.Second, "prewarm at ready")
	for _, r := range parallel(t, 10, in.URL+"/health") {
		if r.Code != http.StatusOK {
			t.Fatalf("health: %d %s", r.Code, r.Body)
		}
	}
	time.Sleep(300 * time.Millisecond) // a few keepalive rounds
	waitConns(t, user, 4, 2*time.Second, "prewarm after traffic and keepalives")
	if v := metric(t, in, `labtarget_pool_conns_created_total{pool="main"}`); v != 4 {
		t.Fatalf("prewarm opened %v connections in all, want 4", v)
	}
}

func TestMariaDBLazyOpensNothingBeforeTrafficAndClosesIdle(t *testing.T) {
	t.Parallel()
	in, user := startMyInstance(t, 0, func(c *config.Config) {
		c.Strategy = "lazy"
		c.MaxConns = 4
		c.IdleTimeout = 300 * time.Millisecond
		c.HealthCheckPeriod = 100 * time.Millisecond
	})
	waitReady(t, in)
	waitConns(t, user, 0, 2*time.Second, "lazy before traffic (probe gone)")
	time.Sleep(200 * time.Millisecond)
	if n := myConns(t, user); n != 0 {
		t.Fatalf("lazy pool has %d connections before any traffic, want 0", n)
	}
	for _, r := range parallel(t, 3, in.URL+"/work?ms=200") {
		if r.Code != http.StatusOK {
			t.Fatalf("work: %d %s", r.Code, r.Body)
		}
	}
	if n := myConns(t, user); n < 1 || n > 4 {
		t.Fatalf("lazy after traffic: %d connections, want 1..4", n)
	}
	// database/sql enforces idle time at most once a second.
	waitConns(t, user, 0, 5*time.Second, "lazy idle connections closed")
	if v := metric(t, in, `labtarget_pool_conns_closed_total{pool="main"}`); v < 1 {
		t.Fatalf("conns_closed_total = %v after idle closes", v)
	}
}

func TestMariaDBPerRequestReturnsToZero(t *testing.T) {
	t.Parallel()
	in, user := startMyInstance(t, 0, func(c *config.Config) { c.Strategy = "per-request" })
	waitReady(t, in)
	hs := []*holder{hold(in.URL + "/work?ms=700"), hold(in.URL + "/work?ms=700"), hold(in.URL + "/work?ms=700")}
	waitConns(t, user, 3, 3*time.Second, "per-request with 3 requests in flight")
	for _, h := range hs {
		h.running(t)
	}
	for _, h := range hs {
		<-h.done
		if !strings.HasPrefix(h.result, "200 ") {
			t.Fatalf("work: %s", h.result)
		}
	}
	waitConns(t, user, 0, 2*time.Second, "per-request after the requests")
	if c, cl := metric(t, in, `labtarget_pool_conns_created_total{pool="main"}`), metric(t, in, `labtarget_pool_conns_closed_total{pool="main"}`); c != 3 || cl != 3 {
		t.Fatalf("created %v closed %v, want 3 and 3", c, cl)
	}
}

func TestMariaDBAcquireTimeoutAnswers503WhileHoldersRun(t *testing.T) {
	t.Parallel()
	in, user := startMyInstance(t, 0, func(c *config.Config) {
		c.Strategy = "fixed"
		c.MaxConns = 2
		c.AcquireTimeout = 150 * time.Millisecond
	})
	waitReady(t, in)
	hs := []*holder{hold(in.URL + "/work?ms=2000"), hold(in.URL + "/work?ms=2000")}
	waitFor(t, 3*time.Second, "both connections held", func() bool {
		return metric(t, in, `labtarget_pool_acquired_conns{pool="main"}`) == 2
	})
	r := get(t, in.URL+"/health")
	for _, h := range hs {
		h.running(t)
	}
	if r.Code != http.StatusServiceUnavailable {
		t.Fatalf("health with the pool exhausted: %d %s", r.Code, r.Body)
	}
	body := r.json(t)
	if body["error"] != "pool_acquire_timeout" || body["pool"] != "main" || body["waitedMs"].(float64) < 150 {
		t.Fatalf("acquire timeout answer: %s", r.Body)
	}
	if n := myConns(t, user); n != 2 {
		t.Fatalf("fixed pool of 2 shows %d connections in MariaDB", n)
	}
	if v := metric(t, in, `labtarget_pool_acquire_timeout_total{pool="main"}`); v != 1 {
		t.Fatalf("acquire_timeout_total = %v", v)
	}
}

func TestMariaDBElasticKeepsMinAndFixedKeepsAll(t *testing.T) {
	t.Parallel()
	tune := func(strategy string) func(*config.Config) {
		return func(c *config.Config) {
			c.Strategy = strategy
			c.MinConns = 2
			c.MaxConns = 5
			c.IdleTimeout = 300 * time.Millisecond
			c.HealthCheckPeriod = 100 * time.Millisecond
		}
	}
	el, elUser := startMyInstance(t, 0, tune("elastic"))
	fx, fxUser := startMyInstance(t, 0, tune("fixed"))
	waitReady(t, el)
	waitReady(t, fx)
	waitConns(t, elUser, 2, 2*time.Second, "elastic at ready")
	waitConns(t, fxUser, 0, 2*time.Second, "fixed at ready")
	var wg sync.WaitGroup
	for _, in := range []*instance{el, fx} {
		wg.Go(func() {
			for _, r := range parallel(t, 5, in.URL+"/work?ms=300") {
				if r.Code != http.StatusOK {
					t.Errorf("work: %d %s", r.Code, r.Body)
				}
			}
		})
	}
	wg.Wait()
	if n := myConns(t, elUser); n != 5 {
		t.Fatalf("elastic under 5 concurrent requests: %d connections, want 5", n)
	}
	waitConns(t, elUser, 2, 5*time.Second, "elastic back to min")
	time.Sleep(1500 * time.Millisecond) // beyond idle timeout and a database/sql cleaner round
	if n := myConns(t, elUser); n != 2 {
		t.Fatalf("elastic did not keep min: %d connections", n)
	}
	if n := myConns(t, fxUser); n != 5 {
		t.Fatalf("fixed closed connections for idleness: %d open, want 5", n)
	}
}

func TestMariaDBEndpoints(t *testing.T) {
	t.Parallel()
	admin := myAdmin(t)
	in, _ := startMyInstance(t, 0, func(c *config.Config) { c.MaxRows = 1000; c.MaxWork = 2 * time.Second })
	r := get(t, in.URL+"/query?rows=300&fields=12")
	var rows []map[string]any
	if err := json.Unmarshal(r.Body, &rows); err != nil || r.Code != http.StatusOK {
		t.Fatalf("query: %d, not a JSON array: %v %.200s", r.Code, err, r.Body)
	}
	if len(rows) != 300 || len(rows[0]) != 13 || rows[299]["id"] != float64(300) {
		t.Fatalf("got %d rows of %d keys (last id %v), want 300 rows of id + 12 fields", len(rows), len(rows[0]), rows[299]["id"])
	}
	if _, ok := rows[0]["f4"].(float64); !ok {
		t.Fatalf("f4 should be a number, got %T", rows[0]["f4"])
	}
	if v, ok := rows[0]["f1"].(string); !ok || v != "ea66c06c1e1c05fa9f1aa39d98dc5bc1" {
		t.Fatalf("f1 should be the md5 string, got %v", rows[0]["f1"])
	}
	if r := get(t, in.URL+"/query?rows=0&fields=3"); r.Code != http.StatusOK || strings.TrimSpace(string(r.Body)) != "[]" {
		t.Fatalf("zero rows: %d %s", r.Code, r.Body)
	}
	if r := get(t, in.URL+"/query?rows=1&fields=13"); r.Code != http.StatusBadRequest || r.json(t)["error"] != "too_many_fields" {
		t.Fatalf("fields beyond the table: %d %s", r.Code, r.Body)
	}
	if r := get(t, in.URL+"/query?rows=1001"); r.Code != http.StatusBadRequest {
		t.Fatalf("rows beyond --max-rows: %d %s", r.Code, r.Body)
	}

	r = get(t, in.URL+"/roles")
	var roles []struct {
		Permissions []struct {
			ID int `json:"id"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(r.Body, &roles); err != nil || r.Code != http.StatusOK || len(roles) != testSizes.Roles {
		t.Fatalf("roles: %d %v %.200s", r.Code, err, r.Body)
	}
	pairs := 0
	for _, role := range roles {
		pairs += len(role.Permissions)
	}
	if links := myCount(t, admin, "SELECT COUNT(*) FROM role_permissions"); pairs != links {
		t.Fatalf("%d pairs in /roles, %d in role_permissions", pairs, links)
	}

	before := myCount(t, admin, "SELECT COALESCE(SUM(hits), 0) FROM counters")
	if r := do(t, http.MethodPost, in.URL+"/work?ms=20", nil, nil); r.Code != http.StatusOK || r.json(t)["write"] != true {
		t.Fatalf("POST /work: %d %s", r.Code, r.Body)
	}
	if r := get(t, in.URL+"/work?ms=20&write=1"); r.Code != http.StatusOK {
		t.Fatalf("GET /work?write=1: %d %s", r.Code, r.Body)
	}
	if after := myCount(t, admin, "SELECT COALESCE(SUM(hits), 0) FROM counters"); after < before+2 {
		t.Fatalf("counters went from %d to %d after two writes", before, after)
	}
	r = get(t, in.URL+"/work?ms=50")
	if r.Code != http.StatusOK || r.json(t)["heldMs"].(float64) < 50 {
		t.Fatalf("GET /work?ms=50: %d %s", r.Code, r.Body)
	}
	m := string(get(t, in.URL+"/metrics").Body)
	for _, name := range []string{
		"labtarget_pool_total_conns", "labtarget_pool_idle_conns", "labtarget_pool_acquired_conns",
		"labtarget_pool_constructing_conns", "labtarget_pool_max_conns", "labtarget_pool_waiting_requests",
		"labtarget_pool_acquire_total", "labtarget_pool_empty_acquire_total", "labtarget_pool_conns_created_total",
		"labtarget_pool_conns_closed_total", "labtarget_pool_acquire_wait_seconds_bucket", "labtarget_db_errors_total",
		"labtarget_db_too_many_clients_total",
	} {
		if !strings.Contains(m, name) {
			t.Errorf("/metrics lacks %s", name)
		}
	}
}

func TestMariaDBStatementTimeoutAndMissingSchema(t *testing.T) {
	t.Parallel()
	in, _ := startMyInstance(t, 0, func(c *config.Config) { c.StatementTimeout = 200 * time.Millisecond })
	r := get(t, in.URL+"/work?ms=1500")
	if r.Code != http.StatusGatewayTimeout || r.json(t)["error"] != "statement_timeout" || r.json(t)["sqlstate"] != "1969" {
		t.Fatalf("work beyond --statement-timeout: %d %s", r.Code, r.Body)
	}
	if v := metric(t, in, `labtarget_db_errors_total{sqlstate="1969"}`); v != 1 {
		t.Fatalf("db_errors_total{1969} = %v", v)
	}

	const empty = "poolbench_lab_test_empty"
	if _, err := myAdmin(t).Exec("CREATE DATABASE IF NOT EXISTS " + empty); err != nil {
		t.Fatal(err)
	}
	_, dsn := myUser(t, empty, 0)
	in2 := startInstance(t, func(c *config.Config) { c.DatabaseURL = dsn })
	waitReady(t, in2)
	if r := get(t, in2.URL+"/query?rows=1"); r.Code != http.StatusServiceUnavailable || r.json(t)["error"] != "lab_schema_missing" {
		t.Fatalf("query without lab tables: %d %s", r.Code, r.Body)
	}
}

func TestMariaDBTooManyClientsIs503(t *testing.T) {
	t.Parallel()
	in, user := startMyInstance(t, 2, func(c *config.Config) { c.Strategy = "per-request" })
	waitReady(t, in)
	waitConns(t, user, 0, 2*time.Second, "probe gone")
	res := parallel(t, 5, in.URL+"/work?ms=500")
	refused := 0
	for _, r := range res {
		switch {
		case r.Code == http.StatusOK:
		case r.Code == http.StatusServiceUnavailable && r.json(t)["error"] == "db_too_many_clients":
			refused++
		default:
			t.Fatalf("unexpected answer: %d %s", r.Code, r.Body)
		}
	}
	if refused < 3 {
		t.Fatalf("%d of 5 requests refused with MAX_USER_CONNECTIONS 2, want >= 3", refused)
	}
	if v := metric(t, in, "labtarget_db_too_many_clients_total"); v != float64(refused) {
		t.Fatalf("db_too_many_clients_total = %v, want %d", v, refused)
	}
}

func TestMariaDBDownAtStartIsNotReady(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.DatabaseURL = "mysql://nobody:x@127.0.0.1:1/none"
		c.Strategy = "prewarm"
		c.ConnectTimeout = time.Second
	})
	time.Sleep(300 * time.Millisecond)
	r := get(t, in.URL+"/ready")
	if r.Code != http.StatusServiceUnavailable || !strings.Contains(r.json(t)["reason"].(string), "database unreachable") {
		t.Fatalf("/ready with MariaDB down: %d %s", r.Code, r.Body)
	}
	if r := get(t, in.URL+"/health"); r.Code != http.StatusServiceUnavailable || r.json(t)["error"] != "db_unavailable" {
		t.Fatalf("/health with MariaDB down: %d %s", r.Code, r.Body)
	}
}

func TestMariaDBUnsupportedStrategyExits2(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"adaptive", "priority", "partitioned", "borrowing"} {
		var stderr bytes.Buffer
		cmd := labTarget(context.Background(), nil, "serve", "--database-url=mariadb://u:p@127.0.0.1:1/x", "--strategy="+s)
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("--strategy=%s on MariaDB: want exit 2, got %v (%s)", s, err, stderr.String())
		}
		msg := stderr.String()
		if !strings.Contains(msg, "--strategy "+s) || !strings.Contains(msg, "MariaDB") || !strings.Contains(msg, "prewarm") {
			t.Fatalf("--strategy=%s: message %q must name the strategy, MariaDB and the supported ones", s, msg)
		}
	}
}

func TestMariaDBPoolPerRequestOpensMinOnTopAndClosesAll(t *testing.T) {
	t.Parallel()
	in, user := startMyInstance(t, 0, func(c *config.Config) {
		c.Strategy = "pool-per-request"
		c.MinConns = 2
		c.MaxConns = 4
	})
	waitReady(t, in)
	h := hold(in.URL + "/work?ms=800")
	// The request's own connection plus the throwaway pool's background minimum.
	// The throwaway pool's --min-conns open in the background on top of (or, if the request
	// comes second, including) the request's own connection.
	waitFor(t, 3*time.Second, "pool-per-request min conns during a request", func() bool {
		n := myConns(t, user)
		return n == 2 || n == 3
	})
	h.running(t)
	<-h.done
	if !strings.HasPrefix(h.result, "200 ") {
		t.Fatalf("work: %s", h.result)
	}
	waitConns(t, user, 0, 3*time.Second, "pool-per-request after the request")
	if c, cl := metric(t, in, `labtarget_pool_conns_created_total{pool="main"}`), metric(t, in, `labtarget_pool_conns_closed_total{pool="main"}`); c < 2 || c != cl {
		t.Fatalf("created %v closed %v", c, cl)
	}
}
