// Package metrics owns the Prometheus registry of one lab-target instance. Each instance
// (and each in-process test server) gets its own registry, so nothing is global.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Latency buckets from 0.25 ms to 60 s: pool waits on a warm pool are sub-millisecond,
// while the seeds report multi-second tails.
var latencyBuckets = []float64{
	0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
	1, 2, 5, 10, 20, 30, 60,
}

// Metrics holds the instruments written by the pools, the HTTP layer and the upstream client.
type Metrics struct {
	Registry *prometheus.Registry

	AcquireWait      *prometheus.HistogramVec // pool
	PriorityWait     *prometheus.HistogramVec // priority
	AcquireTimeouts  *prometheus.CounterVec   // pool
	DBErrors         *prometheus.CounterVec   // sqlstate
	TooManyClients   prometheus.Counter
	HTTPDuration     *prometheus.HistogramVec // route, code
	Borrows          prometheus.Counter
	Resizes          *prometheus.CounterVec // pool, direction
	BackgroundJobs   *prometheus.CounterVec // result
	UpstreamCreated  prometheus.Counter
	UpstreamRequests *prometheus.CounterVec // reused
	UpstreamTLS      prometheus.Histogram
	// The upstream HTTP pool's state, like the database pool's gauges: the pool seed 000 is about.
	UpstreamOpen     prometheus.Gauge
	UpstreamInUse    prometheus.Gauge
	UpstreamMax      prometheus.Gauge
	UpstreamConnWait prometheus.Histogram
	Ready            prometheus.Gauge
}

// New creates a registry with the process and Go collectors plus every lab-target metric.
func New() *Metrics {
	r := prometheus.NewRegistry()
	r.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	r.MustRegister(collectors.NewGoCollector())
	m := &Metrics{
		Registry: r,
		AcquireWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "labtarget_pool_acquire_wait_seconds", Help: "Time from asking for a database connection to holding one.",
			Buckets: latencyBuckets,
		}, []string{"pool"}),
		PriorityWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "labtarget_priority_acquire_wait_seconds", Help: "Acquire wait by request priority (priority and adaptive strategies).",
			Buckets: latencyBuckets,
		}, []string{"priority"}),
		AcquireTimeouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labtarget_pool_acquire_timeout_total", Help: "Acquires that gave up after --acquire-timeout (answered 503).",
		}, []string{"pool"}),
		DBErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labtarget_db_errors_total", Help: "Database errors by SQLSTATE (none = not a server error, e.g. refused or timeout).",
		}, []string{"sqlstate"}),
		TooManyClients: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "labtarget_db_too_many_clients_total", Help: "Connection attempts refused with SQLSTATE 53300 (too many clients/connections).",
		}),
		HTTPDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "labtarget_http_request_duration_seconds", Help: "HTTP request duration by route and status code.",
			Buckets: latencyBuckets,
		}, []string{"route", "code"}),
		Borrows: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "labtarget_pool_borrow_total", Help: "Requests served by the secondary pool because the primary was exhausted (borrowing).",
		}),
		Resizes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labtarget_pool_resize_total", Help: "Adaptive pool limit changes.",
		}, []string{"pool", "direction"}),
		BackgroundJobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labtarget_background_jobs_total", Help: "Background jobs run on the secondary pool (borrowing).",
		}, []string{"result"}),
		UpstreamCreated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "labtarget_upstream_conns_created_total", Help: "New TCP(+TLS) connections opened to the blob store.",
		}),
		UpstreamRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "labtarget_upstream_requests_total", Help: "Requests to the blob store by whether they reused a kept-alive connection.",
		}, []string{"reused"}),
		UpstreamTLS: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "labtarget_upstream_tls_handshake_seconds", Help: "TLS handshakes with the blob store.",
			Buckets: latencyBuckets,
		}),
		UpstreamOpen: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "labtarget_upstream_open_conns", Help: "Open connections to the blob store (idle in the keep-alive pool or carrying a request).",
		}),
		UpstreamInUse: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "labtarget_upstream_inuse_conns", Help: "Requests to the blob store in flight (each holds one connection, HTTP/1.1).",
		}),
		UpstreamMax: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "labtarget_upstream_max_idle_conns", Help: "Keep-alive pool size towards the blob store (--upstream-conns).",
		}),
		UpstreamConnWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "labtarget_upstream_conn_wait_seconds", Help: "Time from asking the transport for a blob store connection to holding one (dial and TLS included when none was idle).",
			Buckets: latencyBuckets,
		}),
		Ready: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "labtarget_ready", Help: "1 when /ready answers 200.",
		}),
	}
	r.MustRegister(m.AcquireWait, m.PriorityWait, m.AcquireTimeouts, m.DBErrors, m.TooManyClients,
		m.HTTPDuration, m.Borrows, m.Resizes, m.BackgroundJobs, m.UpstreamCreated, m.UpstreamRequests,
		m.UpstreamTLS, m.UpstreamOpen, m.UpstreamInUse, m.UpstreamMax, m.UpstreamConnWait, m.Ready)
	m.DBErrors.WithLabelValues("53300") // present from the start, so "0 refused" is visible
	return m
}
