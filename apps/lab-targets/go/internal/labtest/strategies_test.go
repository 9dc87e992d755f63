package labtest

import (
	"bytes"
	"net/http"
	"sync"
	"testing"
	"time"

	"poolbench.dev/lab-target/internal/blobstore"
	"poolbench.dev/lab-target/internal/config"
)

// parallel fires n identical requests at once and waits for all of them.
func parallel(t *testing.T, n int, url string) []response {
	out := make([]response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { out[i] = get(t, url) })
	}
	wg.Wait()
	return out
}

// warm repeats a request until it succeeds, so the pool behind it has a connection.
func warm(t *testing.T, url string) {
	t.Helper()
	waitFor(t, 10*time.Second, "a first connection via "+url, func() bool { return get(t, url).Code == http.StatusOK })
}

func startBlobstore(t *testing.T) *blobstore.Server {
	t.Helper()
	bs, err := blobstore.Start(blobstore.Options{Addr: "127.0.0.1:0", SelfSigned: true}, blobstore.NewStore(false, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bs.Close(time.Second) })
	return bs
}

func TestPrewarmHasEveryConnectionOpenWhenReady(t *testing.T) {
	t.Parallel()
	bs := startBlobstore(t)
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "prewarm"
		c.MaxConns = 5
		c.UpstreamURL = bs.URL
		c.UpstreamInsecure = true
		c.UpstreamConns = 3
	})
	waitReady(t, in)
	if n := dbConns(t, in.AppName); n != 5 {
		t.Fatalf("prewarm ready with %d connections in pg_stat_activity, want 5", n)
	}
	if n := bs.Store.Conns.Load(); n != 3 {
		t.Fatalf("blob store saw %d connections at ready, want the 3 prewarmed (TLS) ones", n)
	}
	if v := metric(t, in, "labtarget_upstream_tls_handshake_seconds_count"); v != 3 {
		t.Fatalf("TLS handshakes before traffic = %v, want 3", v)
	}
	up := do(t, http.MethodPost, in.URL+"/upload", nil, bytes.NewReader(make([]byte, 20<<10)))
	if up.Code != http.StatusCreated || up.json(t)["reusedConn"] != true || up.json(t)["size"] != float64(20<<10) {
		t.Fatalf("upload after prewarm: %d %s (want 201 on a reused connection)", up.Code, up.Body)
	}
	for _, r := range parallel(t, 10, in.URL+"/health") {
		if r.Code != http.StatusOK {
			t.Fatalf("health: %d %s", r.Code, r.Body)
		}
	}
	if n := dbConns(t, in.AppName); n != 5 {
		t.Fatalf("prewarm pool changed size under traffic: %d", n)
	}
}

func TestLazyOpensNothingBeforeTrafficAndClosesIdle(t *testing.T) {
	t.Parallel()
	bs := startBlobstore(t)
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "lazy"
		c.MaxConns = 4
		c.IdleTimeout = 300 * time.Millisecond
		c.HealthCheckPeriod = 100 * time.Millisecond
		c.UpstreamURL = bs.URL
		c.UpstreamInsecure = true
	})
	waitReady(t, in)
	time.Sleep(200 * time.Millisecond)
	if n := dbConns(t, in.AppName); n != 0 {
		t.Fatalf("lazy pool has %d connections before any traffic, want 0", n)
	}
	if n := bs.Store.Conns.Load(); n != 0 {
		t.Fatalf("lazy upstream opened %d connections before traffic", n)
	}
	up := do(t, http.MethodPost, in.URL+"/upload", nil, bytes.NewReader(make([]byte, 1024)))
	if up.Code != http.StatusCreated || up.json(t)["reusedConn"] != false {
		t.Fatalf("first lazy upload: %d %s (want 201 on a new connection)", up.Code, up.Body)
	}
	var wg sync.WaitGroup
	wg.Go(func() { parallel(t, 3, in.URL+"/work?ms=500") })
	waitFor(t, 5*time.Second, "3 connections under load", func() bool { return dbConns(t, in.AppName) == 3 })
	wg.Wait()
	waitFor(t, 5*time.Second, "idle connections closed after --idle-timeout", func() bool { return dbConns(t, in.AppName) == 0 })
}

func TestPerRequestReturnsToZeroAfterTraffic(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) { c.Strategy = "per-request" })
	waitReady(t, in)
	var wg sync.WaitGroup
	wg.Go(func() {
		if r := get(t, in.URL+"/work?ms=600"); r.Code != http.StatusOK {
			t.Errorf("work: %d %s", r.Code, r.Body)
		}
	})
	waitFor(t, 5*time.Second, "a connection while a request runs", func() bool { return dbConns(t, in.AppName) == 1 })
	for _, r := range parallel(t, 12, in.URL+"/health") {
		if r.Code != http.StatusOK {
			t.Fatalf("health: %d %s", r.Code, r.Body)
		}
	}
	wg.Wait()
	waitFor(t, 5*time.Second, "zero connections after traffic", func() bool { return dbConns(t, in.AppName) == 0 })
	if c := metric(t, in, `labtarget_pool_conns_created_total{pool="main"}`); c != 13 {
		t.Fatalf("per-request opened %v connections for 13 requests", c)
	}
}

func TestPoolPerRequestOpensAPoolEachTime(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "pool-per-request"
		c.MaxConns = 3
		c.MinConns = 2
	})
	waitReady(t, in)
	var wg sync.WaitGroup
	wg.Go(func() { get(t, in.URL+"/work?ms=800") })
	// The throwaway pool's background MinConns come on top of the request's own connection.
	waitFor(t, 5*time.Second, "the throwaway pool's min conns", func() bool { return dbConns(t, in.AppName) >= 2 })
	wg.Wait()
	for _, r := range parallel(t, 4, in.URL+"/health") {
		if r.Code != http.StatusOK {
			t.Fatalf("health: %d %s", r.Code, r.Body)
		}
	}
	waitFor(t, 5*time.Second, "zero connections after traffic", func() bool { return dbConns(t, in.AppName) == 0 })
}

func TestAcquireTimeoutAnswers503Quickly(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "fixed"
		c.MaxConns = 1
		c.AcquireTimeout = 200 * time.Millisecond
	})
	waitReady(t, in)
	// Open the connection first: on a loaded machine a first connect can itself outlast a
	// 200 ms acquire timeout (it finishes in the background, so a retry succeeds).
	warm(t, in.URL+"/health")
	h := hold(in.URL + "/work?ms=4000")
	waitFor(t, 10*time.Second, "the only connection held", func() bool {
		h.running(t)
		return metric(t, in, `labtarget_pool_acquired_conns{pool="main"}`) == 1
	})
	start := time.Now()
	r := get(t, in.URL+"/health")
	waited := time.Since(start)
	h.running(t)
	if r.Code != http.StatusServiceUnavailable || r.json(t)["error"] != "pool_acquire_timeout" {
		t.Fatalf("want 503 pool_acquire_timeout, got %d %s", r.Code, r.Body)
	}
	// The answer must come from the acquire timeout, not from the 4 s holder finishing.
	if waited > 2*time.Second {
		t.Fatalf("503 took %s with --acquire-timeout=200ms", waited)
	}
	if v := metric(t, in, `labtarget_pool_acquire_timeout_total{pool="main"}`); v != 1 {
		t.Fatalf("acquire_timeout_total = %v, want 1", v)
	}
}

func TestPriorityServesHighBeforeQueuedNormal(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) { c.Strategy = "priority"; c.MaxConns = 1 })
	waitReady(t, in)
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	call := func(name string, high bool) {
		h := map[string]string{}
		if high {
			h["X-Priority"] = "high"
		}
		r := do(t, http.MethodGet, in.URL+"/work?ms=50", h, nil)
		if r.Code != http.StatusOK {
			t.Errorf("%s: %d %s", name, r.Code, r.Body)
		}
		mu.Lock()
		order = append(order, name)
		mu.Unlock()
	}
	warm(t, in.URL+"/health")
	h := hold(in.URL + "/work?ms=2500")
	waiting := func(n float64) func() bool {
		return func() bool {
			h.running(t)
			return metric(t, in, `labtarget_pool_waiting_requests{pool="main"}`) == n
		}
	}
	waitFor(t, 5*time.Second, "the connection held", func() bool {
		h.running(t)
		return metric(t, in, `labtarget_pool_acquired_conns{pool="main"}`) == 1
	})
	for _, name := range []string{"normal-1", "normal-2", "normal-3"} {
		wg.Go(func() { call(name, false) })
	}
	waitFor(t, 5*time.Second, "3 normal requests queued", waiting(3))
	wg.Go(func() { call("high", true) })
	waitFor(t, 5*time.Second, "the high request queued behind them", waiting(4))
	wg.Wait()
	if len(order) != 4 || order[0] != "high" {
		t.Fatalf("completion order %v: the high-priority request arrived last but must be served first", order)
	}
}

func TestAdaptiveGrowsUnderWaitsAndShrinksWhenIdle(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "adaptive"
		c.MinConns = 1
		c.MaxConns = 6
		c.InitialConns = 1
		c.GrowStep = 2
		c.ShrinkStep = 2
		c.GrowWaitThreshold = 50 * time.Millisecond
		c.CheckInterval = 100 * time.Millisecond
		c.ShrinkIdle = 400 * time.Millisecond
	})
	waitReady(t, in)
	if n := dbConns(t, in.AppName); n != 1 {
		t.Fatalf("adaptive ready with %d connections, want the 1 initial", n)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, r := range parallel(t, 6, in.URL+"/work?ms=1500") {
			if r.Code != http.StatusOK {
				t.Errorf("work: %d %s", r.Code, r.Body)
			}
		}
	})
	waitFor(t, 5*time.Second, "the pool grown to 6 in the database", func() bool { return dbConns(t, in.AppName) == 6 })
	if v := metric(t, in, `labtarget_pool_resize_total{direction="up",pool="main"}`); v < 2 {
		t.Fatalf("resize up count %v, want >= 2 (1 -> 3 -> 5 -> 6)", v)
	}
	wg.Wait()
	waitFor(t, 10*time.Second, "the limit shrunk back to 1", func() bool {
		return metric(t, in, `labtarget_pool_max_conns{pool="main"}`) == 1
	})
	waitFor(t, 5*time.Second, "surplus connections closed in the database", func() bool { return dbConns(t, in.AppName) == 1 })
}

func TestPartitionedColdShardStaysAvailableWhileHotShardIsSaturated(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "partitioned"
		c.Shards = 2
		c.MaxConns = 2
		c.AcquireTimeout = 300 * time.Millisecond
	})
	waitReady(t, in)
	// Shard 1 has served before, so its pool holds an idle connection: what is measured
	// is isolation from shard 0, not how long a first connect takes on a busy machine.
	warm(t, in.URL+"/health?shard=0")
	warm(t, in.URL+"/health?shard=1")
	h1 := hold(in.URL + "/work?ms=4000&shard=0")
	h2 := hold(in.URL + "/work?ms=4000&shard=0")
	waitFor(t, 10*time.Second, "shard 0 saturated", func() bool {
		h1.running(t)
		h2.running(t)
		return metric(t, in, `labtarget_pool_acquired_conns{pool="shard-0"}`) == 2
	})
	hot := get(t, in.URL+"/health?shard=0")
	cold := get(t, in.URL+"/health?shard=1")
	q := get(t, in.URL+"/query?rows=5&fields=2&shard=1")
	h1.running(t)
	h2.running(t)
	if hot.Code != http.StatusServiceUnavailable {
		t.Fatalf("hot shard: want 503 acquire timeout while saturated, got %d %s", hot.Code, hot.Body)
	}
	if cold.Code != http.StatusOK || cold.Header.Get("X-Pool") != "shard-1" {
		t.Fatalf("cold shard must be served by its own pool while shard 0 is saturated: %d %s", cold.Code, cold.Body)
	}
	if q.Code != http.StatusOK || !bytes.Contains(q.Body, []byte(`"id":1}`)) || bytes.Contains(q.Body, []byte(`"id":2}`)) {
		t.Fatalf("shard 1 should hold the odd ids only: %d %s", q.Code, q.Body)
	}
}

func TestBorrowingBorrowsOnlyWhenPrimaryIsExhausted(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "borrowing"
		c.MaxConns = 1
		c.SecondaryMaxConns = 2
		c.BackgroundInterval = 100 * time.Millisecond
	})
	waitReady(t, in)
	waitFor(t, 5*time.Second, "secondary pool open", func() bool {
		return metric(t, in, `labtarget_pool_total_conns{pool="secondary"}`) == 2
	})
	for range 5 {
		r := get(t, in.URL+"/health")
		if r.Code != http.StatusOK || r.Header.Get("X-Pool") != "primary" {
			t.Fatalf("with the primary free, requests must use it: %d %s pool=%s", r.Code, r.Body, r.Header.Get("X-Pool"))
		}
	}
	if v := metric(t, in, "labtarget_pool_borrow_total"); v != 0 {
		t.Fatalf("borrowed %v times with the primary free", v)
	}
	var wg sync.WaitGroup
	wg.Go(func() { get(t, in.URL+"/work?ms=1500") })
	waitFor(t, 5*time.Second, "primary exhausted", func() bool {
		return metric(t, in, `labtarget_pool_acquired_conns{pool="primary"}`) == 1
	})
	r := get(t, in.URL+"/health")
	wg.Wait()
	if r.Code != http.StatusOK || r.Header.Get("X-Pool") != "secondary" {
		t.Fatalf("with the primary exhausted, the request should borrow: %d %s pool=%s", r.Code, r.Body, r.Header.Get("X-Pool"))
	}
	if v := metric(t, in, "labtarget_pool_borrow_total"); v != 1 {
		t.Fatalf("borrow_total = %v, want 1", v)
	}
	if v := metric(t, in, `labtarget_background_jobs_total{result="ok"}`); v < 1 {
		t.Fatal("no background job ran on the secondary pool")
	}
}

func TestFixedOpensOnDemandAndNeverShrinks(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "fixed"
		c.MaxConns = 3
		c.IdleTimeout = 100 * time.Millisecond // ignored by fixed
		c.HealthCheckPeriod = 100 * time.Millisecond
	})
	waitReady(t, in)
	if n := dbConns(t, in.AppName); n != 0 {
		t.Fatalf("fixed opened %d connections before traffic", n)
	}
	parallel(t, 6, in.URL+"/work?ms=300")
	if n := dbConns(t, in.AppName); n != 3 {
		t.Fatalf("fixed pool has %d connections after a burst, want 3", n)
	}
	time.Sleep(700 * time.Millisecond)
	if n := dbConns(t, in.AppName); n != 3 {
		t.Fatalf("fixed pool shrank to %d while idle", n)
	}
}

func TestElasticKeepsMinGrowsToMaxAndShrinksBack(t *testing.T) {
	t.Parallel()
	in := startInstance(t, func(c *config.Config) {
		c.Strategy = "elastic"
		c.MinConns = 2
		c.MaxConns = 5
		c.IdleTimeout = 300 * time.Millisecond
		c.HealthCheckPeriod = 100 * time.Millisecond
	})
	waitReady(t, in)
	waitFor(t, 5*time.Second, "min conns open", func() bool { return dbConns(t, in.AppName) == 2 })
	var wg sync.WaitGroup
	wg.Go(func() { parallel(t, 5, in.URL+"/work?ms=600") })
	waitFor(t, 5*time.Second, "grown to max", func() bool { return dbConns(t, in.AppName) == 5 })
	wg.Wait()
	waitFor(t, 8*time.Second, "shrunk back to min", func() bool { return dbConns(t, in.AppName) == 2 })
}
