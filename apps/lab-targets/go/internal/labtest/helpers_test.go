package labtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"poolbench.dev/lab-target/internal/app"
	"poolbench.dev/lab-target/internal/cli"
	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/labdb"
)

// These tests run against the real Postgres (LAB_TEST_DATABASE_URL, default the local
// services' instance) in a database of their own, created when missing.
func testDSN() string {
	if v := os.Getenv("LAB_TEST_DATABASE_URL"); v != "" {
		return v
	}
	return "postgres://poolbench:poolbench@127.0.0.1:54329/poolbench_lab_test"
}

// testSizes is a small lab data set: big enough for every endpoint, quick to build.
var testSizes = labdb.Sizes{Rows: 400, Fields: 12, Roles: 6, Permissions: 16, Shards: 2}

var admin *pgxpool.Pool

func TestMain(m *testing.M) {
	// Re-executed as the lab-target binary by process-level tests (signals, exit codes).
	if os.Getenv("LAB_TARGET_TEST_EXEC") == "1" {
		os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	if _, err := labdb.Setup(ctx, testDSN(), testSizes); err != nil {
		fmt.Fprintf(os.Stderr, "lab test database setup failed (is Postgres up? infra/services.sh start): %v\n", err)
		os.Exit(1)
	}
	pc, err := pgxpool.ParseConfig(testDSN())
	if err != nil {
		panic(err)
	}
	pc.ConnConfig.RuntimeParams["application_name"] = "labtest-admin"
	pc.MaxConns = 4
	admin, err = pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		panic(err)
	}
	cancel()
	code := m.Run()
	admin.Close()
	os.Exit(code)
}

var appSeq atomic.Int64

// uniqueAppName gives each test instance an application_name nobody else uses. Postgres
// truncates application_name to 63 bytes, so it stays short (a truncated name would make
// every "no connections" assertion pass vacuously).
func uniqueAppName(t *testing.T) string {
	name := strings.ToLower(regexp.MustCompile(`[^a-zA-Z0-9]+`).ReplaceAllString(strings.TrimPrefix(t.Name(), "Test"), ""))
	return fmt.Sprintf("lt%d-%d-%.16s", os.Getpid(), appSeq.Add(1), name)
}

type instance struct {
	URL     string
	App     *app.App
	AppName string
}

// startInstance runs an in-process lab target with test defaults adjusted by tune.
func startInstance(t *testing.T, tune func(*config.Config)) *instance {
	t.Helper()
	cfg := config.Defaults()
	cfg.DatabaseURL = testDSN()
	cfg.AppName = uniqueAppName(t)
	cfg.ConnectTimeout = 5 * time.Second
	cfg.RequestTimeout = 20 * time.Second
	if tune != nil {
		tune(&cfg)
	}
	cfg.Resolve()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil)).With("app", cfg.AppName)
	}
	a, err := app.New(cfg, log)
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	a.Start()
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		a.Close()
	})
	return &instance{URL: srv.URL, App: a, AppName: cfg.AppName}
}

// dbConns counts the instance's connections as Postgres sees them (probe excluded).
func dbConns(t *testing.T, appName string) int {
	t.Helper()
	if len(appName+":secondary") > 63 {
		t.Fatalf("application_name %q would be truncated by Postgres", appName)
	}
	var n int
	err := admin.QueryRow(context.Background(),
		`SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE $1 || ':%' AND application_name <> $1 || ':probe'`,
		appName).Scan(&n)
	if err != nil {
		t.Fatalf("pg_stat_activity: %v", err)
	}
	return n
}

func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type response struct {
	Code   int
	Body   []byte
	Header http.Header
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

func do(t *testing.T, method, url string, header map[string]string, body io.Reader) response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return response{}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{Code: resp.StatusCode, Body: b, Header: resp.Header}
}

func get(t *testing.T, url string) response { return do(t, http.MethodGet, url, nil, nil) }

// holder is a request whose outcome the test does not judge (a connection holder that
// the test may cut off at cleanup).
type holder struct {
	done   chan struct{}
	result string // status or error, set before done closes
}

func hold(url string) *holder {
	h := &holder{done: make(chan struct{})}
	go func() {
		defer close(h.done)
		resp, err := http.Get(url)
		if err != nil {
			h.result = err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		h.result = fmt.Sprintf("%d %s", resp.StatusCode, b)
	}()
	return h
}

// running fails the test if the holder already finished: the test would prove nothing.
func (h *holder) running(t *testing.T) {
	t.Helper()
	select {
	case <-h.done:
		t.Fatalf("connection holder finished early (%s): the test proves nothing", h.result)
	default:
	}
}

func waitReady(t *testing.T, in *instance) {
	t.Helper()
	waitFor(t, 15*time.Second, "/ready", func() bool { return get(t, in.URL+"/ready").Code == http.StatusOK })
}

// metric reads one series from /metrics, e.g. `labtarget_pool_total_conns{pool="main"}`;
// a series that is absent reads as 0.
func metric(t *testing.T, in *instance, series string) float64 {
	t.Helper()
	r := get(t, in.URL+"/metrics")
	sc := bufio.NewScanner(strings.NewReader(string(r.Body)))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, series+" ") {
			v, err := strconv.ParseFloat(strings.TrimSpace(line[len(series):]), 64)
			if err != nil {
				t.Fatalf("metric %s: %v", series, err)
			}
			return v
		}
	}
	return 0
}
