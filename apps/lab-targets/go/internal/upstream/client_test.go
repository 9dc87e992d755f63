package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"poolbench.dev/lab-target/internal/metrics"
)

// The upstream pool's gauges follow its connections: open while kept alive, in use only during a
// request, and the wait for a connection is observed per request (seed 000's pool is this one).
func TestUpstreamPoolGauges(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("hold") != "" {
			<-release
		}
		_ = json.NewEncoder(w).Encode(Result{Key: "k", ETag: "e", Size: r.ContentLength})
	}))
	defer srv.Close()
	m := metrics.New()
	c, err := New(Options{URL: srv.URL, Conns: 4, ConnectTimeout: time.Second}, m)
	if err != nil {
		t.Fatal(err)
	}
	if got := gauge(t, m, "labtarget_upstream_max_idle_conns"); got != 4 {
		t.Fatalf("max idle conns %v, want 4", got)
	}
	for i := 0; i < 3; i++ {
		if _, err := c.Upload(context.Background(), bytes.NewReader([]byte("abc")), 3); err != nil {
			t.Fatal(err)
		}
	}
	// sequential uploads reuse one kept-alive connection
	if open, inUse := gauge(t, m, "labtarget_upstream_open_conns"), gauge(t, m, "labtarget_upstream_inuse_conns"); open != 1 || inUse != 0 {
		t.Fatalf("after 3 sequential uploads: open %v in use %v, want 1 and 0", open, inUse)
	}
	if got := histogramCount(t, m); got != 3 {
		t.Fatalf("conn wait observations %d, want 3", got)
	}
	c.Close()
	deadline := time.Now().Add(2 * time.Second)
	for gauge(t, m, "labtarget_upstream_open_conns") != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := gauge(t, m, "labtarget_upstream_open_conns"); got != 0 {
		t.Fatalf("open conns after Close %v, want 0", got)
	}
	close(release)
}

func histogramCount(t *testing.T, m *metrics.Metrics) uint64 {
	t.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "labtarget_upstream_conn_wait_seconds" {
			return mf.GetMetric()[0].GetHistogram().GetSampleCount()
		}
	}
	t.Fatal("labtarget_upstream_conn_wait_seconds not exposed")
	return 0
}

func gauge(t *testing.T, m *metrics.Metrics, name string) float64 {
	t.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("%s not exposed", name)
	return 0
}
