package poolbench

import (
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"go.k6.io/k6/metrics"
)

// Histogram bounds: 1 µs .. 1 h at 3 significant digits, the range the
// Node side and the database expect for every stored histogram.
const (
	histMinMicros = 1
	histMaxMicros = 3_600_000_000
	histSigFigs   = 3
)

// trendMetrics are the k6 trend metrics kept as per-second histograms, in
// the order they are written.
var trendMetrics = []string{
	"http_req_duration",
	"http_req_waiting",
	"http_req_connecting",
	"http_req_tls_handshaking",
	"http_req_blocked",
	"iteration_duration",
}

// trendIndex is trendMetrics' index of a metric, -1 if it is not kept. A switch, because it runs
// for every sample on k6's hot path; TestTrendIndexAgreesWithTrendMetrics keeps the two in step.
func trendIndex(name string) int {
	switch name {
	case "http_req_duration":
		return 0
	case "http_req_waiting":
		return 1
	case "http_req_connecting":
		return 2
	case "http_req_tls_handshaking":
		return 3
	case "http_req_blocked":
		return 4
	case "iteration_duration":
		return 5
	}
	return -1
}

// checkFailedMetric is the counter generated scripts add 1 to for a request whose status was a
// success but whose checks failed: the run counts it as a failed request.
const checkFailedMetric = "poolbench_check_failed"

func newHistogram() *hdr.Histogram {
	return hdr.New(histMinMicros, histMaxMicros, histSigFigs)
}

// counters are the additive per-second facts; the same type carries the
// run totals in the end line.
type counters struct {
	Requests          int64            `json:"requests"`
	Failed            int64            `json:"failed"`
	Status            map[string]int64 `json:"status"`
	DataSentBytes     int64            `json:"dataSentBytes"`
	DataReceivedBytes int64            `json:"dataReceivedBytes"`
	Iterations        int64            `json:"iterations"`
	DroppedIterations int64            `json:"droppedIterations"`
	// CheckFailed counts requests that succeeded by status but failed one of the scenario's checks
	// (the generated script's poolbench_check_failed counter); they are in Failed as well.
	CheckFailed int64 `json:"checkFailed,omitempty"`
}

func (c *counters) reset() {
	status := c.Status
	clear(status)
	*c = counters{Status: status}
}

func (c *counters) add(o *counters) {
	c.Requests += o.Requests
	c.Failed += o.Failed
	c.DataSentBytes += o.DataSentBytes
	c.DataReceivedBytes += o.DataReceivedBytes
	c.Iterations += o.Iterations
	c.DroppedIterations += o.DroppedIterations
	c.CheckFailed += o.CheckFailed
	for k, v := range o.Status {
		c.Status[k] += v
	}
}

// bucket aggregates every sample whose timestamp falls in one unix second.
type bucket struct {
	sec    int64
	c      counters
	vus    int64
	vusMax int64
	hasVUs bool
	// vusAlloc is k6's vus_max gauge: the VUs allocated (initialized). Arrival-rate executors keep
	// most of them idle between iterations, so their active vus often reads 0 at the sampling moment.
	vusAlloc int64
	hasAlloc bool
	samples  int64
	hists    [6]*hdr.Histogram
	// used marks histograms that received a value, so empty ones are not written.
	used [6]bool
	// checks are k6's `checks` samples by check (see checks.go).
	checks bucketChecks
	// custom are the script's own metrics by id (see custom.go).
	custom bucketCustom
	// sub are the tagged series' values by series id (see submetrics.go).
	sub bucketCustom
}

func newBucket() *bucket {
	b := &bucket{c: counters{Status: map[string]int64{}}}
	for i := range b.hists {
		b.hists[i] = newHistogram()
	}
	return b
}

func (b *bucket) reset(sec int64) {
	b.sec = sec
	b.c.reset()
	b.vus, b.vusMax, b.hasVUs, b.samples = 0, 0, false, 0
	b.vusAlloc, b.hasAlloc = 0, false
	b.checks.reset()
	b.custom.reset()
	b.sub.reset()
	for i, h := range b.hists {
		if b.used[i] {
			h.Reset()
		}
		b.used[i] = false
	}
}

// aboveTop reports whether a value (ms, or a plain number) is above what a histogram holds; micros
// records it as the top.
func aboveTop(ms float64) bool {
	return math.Floor(ms*1000+0.5) > histMaxMicros
}

func micros(ms float64) int64 {
	// checked before the conversion: a float beyond int64's range does not convert to it
	if aboveTop(ms) {
		return histMaxMicros
	}
	v := int64(ms*1000 + 0.5)
	if v < 0 {
		return 0
	}
	return v
}

// record reports whether the sample belonged to a metric PoolBench keeps.
func (b *bucket) record(s *metrics.Sample) bool {
	name := s.Metric.Name
	if i := trendIndex(name); i >= 0 {
		_ = b.hists[i].RecordValue(micros(s.Value))
		b.used[i] = true
		b.samples++
		return true
	}
	switch name {
	case "http_reqs":
		b.c.Requests += int64(s.Value)
		status := "0"
		if s.Tags != nil {
			if v, ok := s.Tags.Get("status"); ok {
				status = v
			}
		}
		b.c.Status[status] += int64(s.Value)
	case "http_req_failed":
		if s.Value != 0 {
			b.c.Failed++
		}
	case checkFailedMetric:
		b.c.Failed += int64(s.Value)
		b.c.CheckFailed += int64(s.Value)
	case "data_sent":
		b.c.DataSentBytes += int64(s.Value)
	case "data_received":
		b.c.DataReceivedBytes += int64(s.Value)
	case "iterations":
		b.c.Iterations += int64(s.Value)
	case "dropped_iterations":
		b.c.DroppedIterations += int64(s.Value)
	case "vus":
		v := int64(s.Value)
		b.vus = v
		if !b.hasVUs || v > b.vusMax {
			b.vusMax = v
		}
		b.hasVUs = true
	case "vus_max":
		if v := int64(s.Value); !b.hasAlloc || v > b.vusAlloc {
			b.vusAlloc = v
		}
		b.hasAlloc = true
	default:
		return false
	}
	b.samples++
	return true
}

// secondLine is one NDJSON line per closed second (see README).
type secondLine struct {
	V      int    `json:"v"`
	Type   string `json:"type"`
	TS     int64  `json:"ts"`
	VUs    *int64 `json:"vus,omitempty"`
	VUsMax *int64 `json:"vusMax,omitempty"`
	// the highest vus_max (allocated VUs) of the second
	VUsAllocated *int64            `json:"vusAllocated,omitempty"`
	Hist         map[string]string `json:"hist"`
	counters
	// Checks are the second's passes and fails per check that had samples; ChecksOverflow those
	// of check names past maxChecks.
	Checks         []checkLine `json:"checks,omitempty"`
	ChecksOverflow *checkCount `json:"checksOverflow,omitempty"`
	// Custom are the script's own metrics and the groups' durations (groupDurationName) that had
	// samples in the second, by name.
	Custom map[string]customLine `json:"custom,omitempty"`
	// SubMetrics are the tagged series (the ones the end line lists) that had samples in the
	// second, by series name, shaped as custom metrics are.
	SubMetrics map[string]customLine `json:"subMetrics,omitempty"`
}

// line is the second's NDJSON line; checkNames, customNames and subNames must name every check,
// custom metric and tagged series id the bucket counted.
func (b *bucket) line(enc *encoder, checkNames []checkKey, customNames, subNames []string) (secondLine, error) {
	l := secondLine{V: 1, Type: "second", TS: b.sec, counters: b.c, Hist: map[string]string{}}
	l.Checks, l.ChecksOverflow = b.checks.lines(checkNames), b.checks.overflowOrNil()
	custom, err := b.custom.lines(enc, customNames)
	if err != nil {
		return l, err
	}
	l.Custom = custom
	if l.SubMetrics, err = b.sub.lines(enc, subNames); err != nil {
		return l, err
	}
	if b.hasVUs {
		vus, vusMax := b.vus, b.vusMax
		l.VUs, l.VUsMax = &vus, &vusMax
	}
	if b.hasAlloc {
		alloc := b.vusAlloc
		l.VUsAllocated = &alloc
	}
	for i, h := range b.hists {
		if !b.used[i] {
			continue
		}
		encoded, err := enc.encode(h)
		if err != nil {
			return l, err
		}
		l.Hist[trendMetrics[i]] = encoded
	}
	return l, nil
}

// stepLine is one request name's part of the run.
type stepLine struct {
	Requests int64  `json:"requests"`
	Failed   int64  `json:"failed"`
	Hist     string `json:"hist"`
}

// endLine is written once, after every open second has been flushed.
type endLine struct {
	V            int    `json:"v"`
	Type         string `json:"type"`
	Seconds      int64  `json:"seconds"`
	LateSamples  int64  `json:"lateSamples"`
	LateRequests int64  `json:"lateRequests"`
	// MaxLagMs is the longest a load sample took to reach the output; GraceMs how long a
	// second waited for its samples. A run with MaxLagMs near GraceMs lost samples, or nearly.
	MaxLagMs int64 `json:"maxLagMs"`
	GraceMs  int64 `json:"graceMs"`
	// Steps: per request name, over the load (at most maxSteps names; StepsOverflow counts the
	// requests of further names).
	Steps         map[string]stepLine `json:"steps,omitempty"`
	StepsOverflow int64               `json:"stepsOverflow,omitempty"`
	FirstTS       *int64              `json:"firstTs,omitempty"`
	LastTS        *int64              `json:"lastTs,omitempty"`
	DurationMs    int64               `json:"durationMs"`
	LoadStartMs   *int64              `json:"loadStartMs,omitempty"`
	LoadEndMs     *int64              `json:"loadEndMs,omitempty"`
	Totals        counters            `json:"totals"`
	// Checks are k6's checks over the written seconds, in the order they first appeared.
	Checks         []checkLine `json:"checks,omitempty"`
	ChecksOverflow *checkCount `json:"checksOverflow,omitempty"`
	// SubMetrics are the tagged series the thresholds name and the other values of their tags,
	// at most maxSeries; SubMetricsDropped counts the samples of further series.
	SubMetrics        []subMetricLine `json:"subMetrics,omitempty"`
	SubMetricsDropped int64           `json:"subMetricsDropped,omitempty"`
	// Custom are the script's own metrics (at most maxCustom) and the groups' durations (at most
	// maxGroups) over the written seconds; CustomDropped counts the samples of further ones.
	Custom        map[string]customLine `json:"custom,omitempty"`
	CustomDropped int64                 `json:"customDropped,omitempty"`
	Error         string                `json:"error,omitempty"`
}
