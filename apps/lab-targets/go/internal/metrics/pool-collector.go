package metrics

import "github.com/prometheus/client_golang/prometheus"

// PoolStats is one pool's state at scrape time. Counters are cumulative since start.
type PoolStats struct {
	Pool         string `json:"pool"`
	Total        int64  `json:"totalConns"`
	Idle         int64  `json:"idleConns"`
	Acquired     int64  `json:"acquiredConns"`
	Constructing int64  `json:"constructingConns"`
	Max          int64  `json:"maxConns"`        // current limit (changes over time for adaptive)
	Waiting      int64  `json:"waitingRequests"` // acquires in progress

	AcquireCount         int64 `json:"acquireCount"`
	EmptyAcquireCount    int64 `json:"emptyAcquireCount"`
	CanceledAcquireCount int64 `json:"canceledAcquireCount"`
	Created              int64 `json:"connsCreated"`
	Closed               int64 `json:"connsClosed"`
}

type poolCollector struct {
	stats func() []PoolStats
	descs map[string]*prometheus.Desc
}

var poolGauges = []struct{ name, help string }{
	{"labtarget_pool_total_conns", "Open connections (idle + acquired + constructing)."},
	{"labtarget_pool_idle_conns", "Idle connections."},
	{"labtarget_pool_acquired_conns", "Connections currently held by requests or jobs."},
	{"labtarget_pool_constructing_conns", "Connections being opened."},
	{"labtarget_pool_max_conns", "Current connection limit of the pool."},
	{"labtarget_pool_waiting_requests", "Acquires in progress (waiting for a connection)."},
}

var poolCounters = []struct{ name, help string }{
	{"labtarget_pool_acquire_total", "Successful connection acquires."},
	{"labtarget_pool_empty_acquire_total", "Acquires that had to wait (no idle connection or limit reached)."},
	{"labtarget_pool_canceled_acquire_total", "Acquires abandoned because the request or timeout ended."},
	{"labtarget_pool_conns_created_total", "Connections opened."},
	{"labtarget_pool_conns_closed_total", "Connections closed."},
}

// RegisterPools exposes the pool gauges and counters, read from stats at every scrape,
// each labelled with its pool (main, shard-N, primary, secondary).
func (m *Metrics) RegisterPools(stats func() []PoolStats) {
	c := &poolCollector{stats: stats, descs: map[string]*prometheus.Desc{}}
	for _, g := range poolGauges {
		c.descs[g.name] = prometheus.NewDesc(g.name, g.help, []string{"pool"}, nil)
	}
	for _, g := range poolCounters {
		c.descs[g.name] = prometheus.NewDesc(g.name, g.help, []string{"pool"}, nil)
	}
	m.Registry.MustRegister(c)
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.stats() {
		gauges := []int64{s.Total, s.Idle, s.Acquired, s.Constructing, s.Max, s.Waiting}
		for i, g := range poolGauges {
			ch <- prometheus.MustNewConstMetric(c.descs[g.name], prometheus.GaugeValue, float64(gauges[i]), s.Pool)
		}
		counters := []int64{s.AcquireCount, s.EmptyAcquireCount, s.CanceledAcquireCount, s.Created, s.Closed}
		for i, g := range poolCounters {
			ch <- prometheus.MustNewConstMetric(c.descs[g.name], prometheus.CounterValue, float64(counters[i]), s.Pool)
		}
	}
}
