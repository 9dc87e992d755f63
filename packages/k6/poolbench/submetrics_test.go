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

type subEnd struct {
	Type       string `json:"type"`
	SubMetrics []struct {
		Name     string            `json:"name"`
		Metric   string            `json:"metric"`
		Tags     map[string]string `json:"tags"`
		Type     string            `json:"type"`
		Count    int64             `json:"count"`
		Time     *bool             `json:"time"`
		Negative int64             `json:"negative"`
		NonZero  *int64            `json:"nonZero"`
		Sum      *float64          `json:"sum"`
		Hist     string            `json:"hist"`
	} `json:"subMetrics"`
	SubMetricsDropped int64 `json:"subMetricsDropped"`
}

func withThresholds(t *testing.T, f *fixture, names ...string) {
	t.Helper()
	th := map[string]metrics.Thresholds{}
	for _, n := range names {
		th[n] = metrics.NewThresholds([]string{"count>0"})
	}
	sm, err := newSubMetrics(th)
	if err != nil {
		t.Fatal(err)
	}
	f.out.sub = sm
}

func subEndLine(t *testing.T, f *fixture) subEnd {
	t.Helper()
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	var end subEnd
	if err := json.Unmarshal(raw[len(raw)-1], &end); err != nil {
		t.Fatal(err)
	}
	return end
}

func TestSubMetricsKeepTheSeriesThresholdsName(t *testing.T) {
	f := newFixture(t)
	withThresholds(t, f, "http_req_duration{name:me}", "http_req_failed{name:me}", "http_reqs{method:GET,status:200}", "http_req_duration", "checks{group:::login}")
	for i := 0; i < 4; i++ {
		me := map[string]string{"name": "me", "method": "GET", "status": "200"}
		f.add("http_req_duration", 0.1, float64(10*(i+1)), me)
		f.add("http_req_failed", 0.1, float64(i%2), me)
		f.add("http_reqs", 0.1, 1, me)
		login := map[string]string{"name": "login", "method": "POST", "status": "200"}
		f.add("http_req_duration", 0.2, 1000, login)
		f.add("http_reqs", 0.2, 1, login)
	}
	f.add("http_req_duration", 0.3, 5, map[string]string{"name": "me", "group": "::setup"}) // not load
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	end := subEndLine(t, f)
	got := map[string]int64{}
	for _, s := range end.SubMetrics {
		got[s.Name] = s.Count
	}
	// the thresholds' series (sorted by name), then the other values of their tags as they came
	want := map[string]int64{
		"checks{group:::login}":             0,
		"http_req_duration{name:me}":        4,
		"http_req_failed{name:me}":          4,
		"http_reqs{method:GET,status:200}":  4,
		"http_req_duration{name:login}":     4,
		"http_reqs{method:POST,status:200}": 4,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || end.SubMetricsDropped != 0 {
		t.Fatalf("series %v (dropped %d), want %v", got, end.SubMetricsDropped, want)
	}
	for _, s := range end.SubMetrics {
		switch s.Name {
		case "http_req_duration{name:me}":
			h, err := hdr.Decode([]byte(s.Hist))
			if err != nil {
				t.Fatal(err)
			}
			if s.Type != "trend" || h.TotalCount() != 4 || h.Max() < 39_900 || h.Max() > 40_100 {
				t.Fatalf("%s: %s, %d values, max %d µs", s.Name, s.Type, h.TotalCount(), h.Max())
			}
			if s.Tags["name"] != "me" || s.Metric != "http_req_duration" {
				t.Fatalf("%s: metric %q tags %v", s.Name, s.Metric, s.Tags)
			}
		case "http_req_failed{name:me}":
			if s.Type != "rate" || s.NonZero == nil || *s.NonZero != 2 {
				t.Fatalf("%s: %s nonZero %v, want rate 2", s.Name, s.Type, s.NonZero)
			}
		case "http_reqs{method:POST,status:200}":
			if s.Type != "counter" || s.Sum == nil || *s.Sum != 4 {
				t.Fatalf("%s: %s sum %v, want counter 4", s.Name, s.Type, s.Sum)
			}
		case "checks{group:::login}":
			if s.Type != "none" {
				t.Fatalf("a series without samples has type %q", s.Type)
			}
		}
	}
}

func TestSubMetricTrendsSayWhetherTheyHoldTimes(t *testing.T) {
	f := newFixture(t)
	withThresholds(t, f, "http_req_duration{name:me}", "cart_items{name:me}")
	me := map[string]string{"name": "me"}
	f.add("http_req_duration", 0.1, 12, me)
	m, err := f.reg.NewMetric("cart_items", metrics.Trend) // new Trend('cart_items'): numbers
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{3, -1} {
		f.out.AddMetricSamples([]metrics.SampleContainer{metrics.Samples{{
			TimeSeries: metrics.TimeSeries{Metric: m, Tags: f.reg.RootTagSet().With("name", "me")},
			Time:       f.base.Add(100 * time.Millisecond),
			Value:      v,
		}}})
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, s := range subEndLine(t, f).SubMetrics {
		switch s.Name {
		case "http_req_duration{name:me}":
			if s.Time == nil || !*s.Time || s.Negative != 0 {
				t.Fatalf("%s: time %v, negative %d", s.Name, s.Time, s.Negative)
			}
		case "cart_items{name:me}":
			if s.Time == nil || *s.Time || s.Count != 1 || s.Negative != 1 {
				t.Fatalf("%s: time %v, count %d, negative %d", s.Name, s.Time, s.Count, s.Negative)
			}
		}
	}
}

func TestSubMetricSeriesAreBounded(t *testing.T) {
	f := newFixture(t)
	withThresholds(t, f, "http_req_duration{name:req-77}")
	// a script that names every request differently
	for i := 0; i < 200; i++ {
		f.add("http_req_duration", 0.1, 1, map[string]string{"name": fmt.Sprintf("req-%d", i)})
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	end := subEndLine(t, f)
	if len(end.SubMetrics) != maxSeries || end.SubMetricsDropped != 200-maxSeries {
		t.Fatalf("kept %d series, dropped %d samples; want %d and %d", len(end.SubMetrics), end.SubMetricsDropped, maxSeries, 200-maxSeries)
	}
	// the threshold's own series is kept although it came after the cap filled
	if first := end.SubMetrics[0]; first.Name != "http_req_duration{name:req-77}" || first.Count != 1 {
		t.Fatalf("first series %s with %d samples", first.Name, first.Count)
	}
}

func TestWithoutSubMetricThresholdsTheEndLineHasNoSeries(t *testing.T) {
	f := newFixture(t)
	withThresholds(t, f, "http_req_duration", "checks")
	f.add("http_req_duration", 0.1, 1, map[string]string{"name": "x"})
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(f.buf.Bytes(), []byte("subMetrics")) {
		t.Fatal("series without a sub-metric threshold")
	}
}

func TestSubMetricSeriesPerSecondAddUpToTheRun(t *testing.T) {
	f := newFixture(t)
	withThresholds(t, f, "http_req_duration{name:me}", "http_reqs{name:me}")
	for sec := 0; sec < 3; sec++ {
		for i := 0; i <= sec; i++ {
			me := map[string]string{"name": "me"}
			f.add("http_req_duration", float64(sec)+0.1, float64(10*(i+1)), me)
			f.add("http_reqs", float64(sec)+0.1, 1, me)
			f.add("http_req_duration", float64(sec)+0.2, 5, map[string]string{"name": "other"})
		}
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	if len(raw) != 4 {
		t.Fatalf("%d lines, want 3 seconds and the end", len(raw))
	}
	var total int64
	for sec, line := range raw[:3] {
		var l struct {
			SubMetrics map[string]customLine `json:"subMetrics"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatal(err)
		}
		d, reqs := l.SubMetrics["http_req_duration{name:me}"], l.SubMetrics["http_reqs{name:me}"]
		h, err := hdr.Decode([]byte(d.Hist))
		if err != nil {
			t.Fatal(err)
		}
		if d.Type != "trend" || h.TotalCount() != int64(sec+1) || h.Max() < int64(10_000*(sec+1))-50 {
			t.Fatalf("second %d: %+v, %d values, max %d µs", sec, d, h.TotalCount(), h.Max())
		}
		if reqs.Type != "counter" || *reqs.Sum != float64(sec+1) {
			t.Fatalf("second %d: http_reqs{name:me} %+v", sec, reqs)
		}
		if l.SubMetrics["http_req_duration{name:other}"].Count != int64(sec+1) {
			t.Fatalf("second %d: the other value of the tag %+v", sec, l.SubMetrics["http_req_duration{name:other}"])
		}
		total += d.Count
	}
	end := subEndLine(t, f)
	for _, s := range end.SubMetrics {
		if s.Name == "http_req_duration{name:me}" && s.Count != total {
			t.Fatalf("the run's series has %d samples, its seconds %d", s.Count, total)
		}
	}
}
