package poolbench

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"go.k6.io/k6/metrics"
)

// BenchmarkAddRequestSamples measures the output's cost per HTTP request: the
// samples k6 emits for one request and one iteration, delivered in one batch.
func BenchmarkAddRequestSamples(b *testing.B) {
	reg := metrics.NewRegistry()
	tags := reg.RootTagSet().With("status", "200").With("method", "GET").With("url", "http://127.0.0.1/").With("name", "http://127.0.0.1/")
	names := []struct {
		name string
		typ  metrics.MetricType
	}{
		{"http_reqs", metrics.Counter}, {"http_req_duration", metrics.Trend}, {"http_req_blocked", metrics.Trend},
		{"http_req_connecting", metrics.Trend}, {"http_req_tls_handshaking", metrics.Trend}, {"http_req_sending", metrics.Trend},
		{"http_req_waiting", metrics.Trend}, {"http_req_receiving", metrics.Trend}, {"http_req_failed", metrics.Rate},
		{"data_sent", metrics.Counter}, {"data_received", metrics.Counter}, {"iterations", metrics.Counter},
		{"iteration_duration", metrics.Trend},
	}
	logger := logrus.New()
	logger.SetOutput(io.Discard)
	o := newOutput(logger, 2*time.Second, time.Now)
	o.manualClose = true
	o.w = &bytes.Buffer{}
	if err := o.Start(); err != nil {
		b.Fatal(err)
	}
	const batch = 100
	base := time.Unix(1_000_000, 0)
	containers := make([]metrics.SampleContainer, batch)
	samples := make([]metrics.Samples, batch)
	for j := range containers {
		s := make(metrics.Samples, len(names))
		for k, n := range names {
			s[k] = metrics.Sample{
				TimeSeries: metrics.TimeSeries{Metric: reg.MustNewMetric(n.name, n.typ), Tags: tags},
				Value:      float64(1+(j*31+k*7)%3000) / 1000,
			}
		}
		samples[j], containers[j] = s, s
	}
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		now := base.Add(time.Duration(i) * 50 * time.Microsecond) // 20 k requests/s
		for _, s := range samples {
			for k := range s {
				s[k].Time = now
			}
		}
		o.AddMetricSamples(containers)
		if i%20_000 == 0 {
			o.tick(now)
		}
	}
}
