package poolbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"go.k6.io/k6/metrics"
)

type customLines struct {
	Type          string                `json:"type"`
	Custom        map[string]customLine `json:"custom"`
	CustomDropped int64                 `json:"customDropped"`
}

func (f *fixture) addTyped(name string, typ metrics.MetricType, offset, value float64, contains ...metrics.ValueType) {
	m, err := f.reg.NewMetric(name, typ, contains...)
	if err != nil {
		f.t.Fatal(err)
	}
	s := metrics.Sample{
		TimeSeries: metrics.TimeSeries{Metric: m, Tags: f.reg.RootTagSet()},
		Time:       f.base.Add(time.Duration(offset * float64(time.Second))),
		Value:      value,
	}
	f.out.AddMetricSamples([]metrics.SampleContainer{metrics.Samples{s}})
}

func TestCustomMetricsPerSecondAndInTotal(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 4; i++ {
		f.addTyped("login_ms", metrics.Trend, 0.1, float64(10*(i+1)))
		f.addTyped("orders", metrics.Counter, 0.2, 2)
		f.addTyped("ok_rate", metrics.Rate, 0.3, float64(i%2))
		f.addTyped("queue_len", metrics.Gauge, 0.4, float64(7-i))
	}
	f.addTyped("login_ms", metrics.Trend, 1.5, 100)
	f.add("http_req_sending", 0.1, 1, nil) // k6's own, not custom
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	var ls []customLines
	for _, raw := range bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n")) {
		var l customLines
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	s0, s1, end := ls[0].Custom, ls[1].Custom, ls[2].Custom
	if len(s0) != 4 || len(s1) != 1 || len(end) != 4 {
		t.Fatalf("custom metrics: second 0 %v, second 1 %v, end %v", s0, s1, end)
	}
	if c := s0["orders"]; c.Type != "counter" || *c.Sum != 8 || c.Count != 4 {
		t.Fatalf("counter %+v", c)
	}
	if r := s0["ok_rate"]; r.Type != "rate" || *r.NonZero != 2 || r.Count != 4 {
		t.Fatalf("rate %+v", r)
	}
	if g := s0["queue_len"]; g.Type != "gauge" || *g.Value != 4 || *g.Max != 7 {
		t.Fatalf("gauge %+v", g)
	}
	h, err := hdr.Decode([]byte(end["login_ms"].Hist))
	if err != nil {
		t.Fatal(err)
	}
	if end["login_ms"].Type != "trend" || h.TotalCount() != 5 || h.Max() < 99_900 || h.Max() > 100_100 {
		t.Fatalf("trend over the run: %+v, %d values, max %d µs", end["login_ms"], h.TotalCount(), h.Max())
	}
	if _, ok := end["http_req_sending"]; ok {
		t.Fatal("a k6 metric was kept as custom")
	}
}

func endCustom(t *testing.T, f *fixture) customLines {
	t.Helper()
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	var end customLines
	if err := json.Unmarshal(raw[len(raw)-1], &end); err != nil {
		t.Fatal(err)
	}
	return end
}

func TestTrendsSayWhetherTheyHoldTimes(t *testing.T) {
	f := newFixture(t)
	f.addTyped("login_ms", metrics.Trend, 0.1, 12.5, metrics.Time) // new Trend('login_ms', true)
	f.addTyped("cart_items", metrics.Trend, 0.1, 3)                // new Trend('cart_items')
	f.add("group_duration", 0.2, 40, map[string]string{"group": "::login"})
	f.addTyped("orders", metrics.Counter, 0.3, 1)
	end := endCustom(t, f)
	for name, want := range map[string]bool{
		"login_ms":                      true,
		"cart_items":                    false,
		"group_duration{group:::login}": true,
	} {
		c := end.Custom[name]
		if c.Time == nil || *c.Time != want {
			t.Errorf("%s: time %v, want %v", name, c.Time, want)
		}
	}
	// a plain number is kept in the histogram like a time in ms: ×1000
	h, err := hdr.Decode([]byte(end.Custom["cart_items"].Hist))
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 1 || h.Max() < 2_990 || h.Max() > 3_010 {
		t.Fatalf("cart_items: %d values, max %d", h.TotalCount(), h.Max())
	}
	if c := end.Custom["orders"]; c.Time != nil {
		t.Fatalf("a counter has a time flag: %+v", c)
	}
}

func TestNegativeTrendSamplesAreCountedNotLost(t *testing.T) {
	f := newFixture(t)
	for _, v := range []float64{5, -2, 7, -0.5} {
		f.addTyped("delta", metrics.Trend, 0.1, v)
	}
	f.addTyped("delta", metrics.Trend, 1.1, -3)
	f.addTyped("delta", metrics.Trend, 2.1, 0) // zero is a value the histogram holds
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	var ls []customLines
	for _, raw := range bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n")) {
		var l customLines
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	s0, s1, s2, end := ls[0].Custom["delta"], ls[1].Custom["delta"], ls[2].Custom["delta"], ls[3].Custom["delta"]
	if s0.Count != 2 || s0.Negative != 2 {
		t.Fatalf("second 0: %+v", s0)
	}
	// a second with only negative samples still says so, with an empty histogram
	if s1.Count != 0 || s1.Negative != 1 || s1.Hist == "" {
		t.Fatalf("second 1: %+v", s1)
	}
	if s2.Count != 1 || s2.Negative != 0 {
		t.Fatalf("second 2: %+v", s2)
	}
	if end.Count != 3 || end.Negative != 3 {
		t.Fatalf("over the run: %+v", end)
	}
	h, err := hdr.Decode([]byte(end.Hist))
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != end.Count || h.Min() != 0 || h.Max() < 6_990 || h.Max() > 7_010 {
		t.Fatalf("histogram: %d values, %d..%d", h.TotalCount(), h.Min(), h.Max())
	}
}

func TestTrendSamplesAboveTheTopAreKeptAtItAndCounted(t *testing.T) {
	f := newFixture(t)
	// a plain-number trend of response sizes: 5 MB is above the histogram's 3.6e6; 1e18 is
	// beyond int64 once in µs, and must not wrap to a small value
	for _, v := range []float64{1_000, 5_000_000, 3_600_000, 1e18} {
		f.addTyped("body_bytes", metrics.Trend, 0.1, v)
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	var end customLines
	if err := json.Unmarshal(raw[len(raw)-1], &end); err != nil {
		t.Fatal(err)
	}
	m := end.Custom["body_bytes"]
	// 3.6e6 itself is the top, held exactly; 5e6 and 1.2e7 are above it
	if m.Count != 4 || m.AboveTop != 2 || m.Negative != 0 {
		t.Fatalf("over the run: %+v", m)
	}
	h, err := hdr.Decode([]byte(m.Hist))
	if err != nil {
		t.Fatal(err)
	}
	// the three at or above the top are held at the top, none at 0
	if h.TotalCount() != 4 || h.Min() < 999_000 || !h.ValuesAreEquivalent(h.ValueAtQuantile(50), histMaxMicros) {
		t.Fatalf("histogram: %d values, min %d, p50 %d", h.TotalCount(), h.Min(), h.ValueAtQuantile(50))
	}
}

func TestCustomMetricsAreBounded(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < maxCustom+4; i++ {
		f.addTyped(fmt.Sprintf("m_%d", i), metrics.Counter, 0.1, 1)
		f.addTyped(fmt.Sprintf("m_%d", i), metrics.Counter, 0.2, 1)
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	var end customLines
	if err := json.Unmarshal(raw[len(raw)-1], &end); err != nil {
		t.Fatal(err)
	}
	if len(end.Custom) != maxCustom || end.CustomDropped != 8 {
		t.Fatalf("kept %d metrics, dropped %d samples; want %d and 8", len(end.Custom), end.CustomDropped, maxCustom)
	}
}

func TestGroupDurationsAreKeptPerGroupAndBounded(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 4; i++ {
		f.add("group_duration", 0.1, float64(10*(i+1)), map[string]string{"group": "::login"})
		f.add("group_duration", 0.2, 500, map[string]string{"group": "::login::token"})
	}
	f.add("group_duration", 0.3, 5, map[string]string{"group": "::setup"}) // not load
	for i := 0; i < maxGroups; i++ {
		f.add("group_duration", 0.4, 1, map[string]string{"group": fmt.Sprintf("::g%d", i)})
	}
	// the script's own metrics keep their own cap beside the groups'
	for i := 0; i < maxCustom; i++ {
		f.addTyped(fmt.Sprintf("m_%d", i), metrics.Counter, 0.5, 1)
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	var end customLines
	if err := json.Unmarshal(raw[len(raw)-1], &end); err != nil {
		t.Fatal(err)
	}
	login := end.Custom["group_duration{group:::login}"]
	h, err := hdr.Decode([]byte(login.Hist))
	if err != nil {
		t.Fatal(err)
	}
	if login.Type != "trend" || h.TotalCount() != 4 || h.Max() < 39_900 || h.Max() > 40_100 {
		t.Fatalf("login's duration %+v, %d values, max %d µs", login, h.TotalCount(), h.Max())
	}
	if end.Custom["group_duration{group:::login::token}"].Count != 4 {
		t.Fatalf("nested group %+v", end.Custom["group_duration{group:::login::token}"])
	}
	if _, ok := end.Custom["group_duration{group:::setup}"]; ok {
		t.Fatal("setup()'s group was kept")
	}
	// 2 groups + 14 of the 16 further ones, then every custom metric
	if len(end.Custom) != maxGroups+maxCustom || end.CustomDropped != 2 {
		t.Fatalf("kept %d, dropped %d samples; want %d and 2", len(end.Custom), end.CustomDropped, maxGroups+maxCustom)
	}
}
