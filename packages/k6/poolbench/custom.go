package poolbench

import (
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"go.k6.io/k6/metrics"
)

// maxCustom bounds the script's own metrics (k6/metrics Trend, Counter, Rate, Gauge) kept per
// run, and maxGroups the groups whose duration is kept beside them; samples of further metrics
// and groups are counted as dropped.
const (
	maxCustom = 16
	maxGroups = 16
)

// groupDurationName names a group's duration as a k6 sub-metric threshold does
// (`group_duration{group:::login}`): k6's group_duration trend of one group, kept per second and
// over the run like the script's own trends.
func groupDurationName(tags *metrics.TagSet) string {
	g := ""
	if tags != nil {
		g, _ = tags.Get("group")
	}
	return "group_duration{group:" + g + "}"
}

// isBuiltin reports whether k6 (or a k6 module) emits the metric itself: only the script's own
// metrics are custom.
func isBuiltin(name string) bool {
	switch name {
	case "vus", "vus_max", "iterations", "iteration_duration", "dropped_iterations", "data_sent",
		"data_received", "checks", "group_duration", checkFailedMetric:
		return true
	}
	for _, prefix := range []string{"http_", "ws_", "grpc_", "browser_", "k6_"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// customValue is one custom metric in one second, or over the run.
type customValue struct {
	typ metrics.MetricType
	// time marks a trend of times (k6's `new Trend(name, true)`, group_duration, http_req_*):
	// k6 holds those in ms. A trend without it holds plain numbers.
	time bool
	// count is the samples kept; negative the samples of a trend below 0, which its histogram
	// cannot hold: left out of it and of count, and counted here instead. aboveTop: the samples
	// of a trend above its histogram's top (1 h of ms; 3.6e6 of a plain number), kept at the top
	// (in count), so a percentile that reads the top means at least the top.
	count    int64
	negative int64
	aboveTop int64
	sum      float64
	nonZero  int64
	last     float64
	max      float64
	hist     *hdr.Histogram
	used     bool
}

func (v *customValue) reset() {
	if v.hist != nil && v.count > 0 {
		v.hist.Reset()
	}
	hist := v.hist
	*v = customValue{hist: hist}
}

func (v *customValue) record(s *metrics.Sample) {
	if !v.used || s.Value > v.max {
		v.max = s.Value
	}
	v.used = true
	v.typ = s.Metric.Type
	if v.typ == metrics.Trend {
		v.time = s.Metric.Contains == metrics.Time
		if v.hist == nil {
			v.hist = newHistogram()
		}
		if s.Value < 0 {
			v.negative++
			return
		}
		if aboveTop(s.Value) {
			v.aboveTop++
		}
		_ = v.hist.RecordValue(micros(s.Value))
	}
	v.count++
	switch v.typ {
	case metrics.Rate:
		if s.Value != 0 {
			v.nonZero++
		}
	case metrics.Counter:
		v.sum += s.Value
	case metrics.Gauge:
		v.last = s.Value
	}
}

// add merges a second into the run's value.
func (v *customValue) add(o *customValue) {
	if !o.used {
		return
	}
	if !v.used || o.max > v.max {
		v.max = o.max
	}
	v.used = true
	v.typ = o.typ
	v.time = o.time
	v.count += o.count
	v.negative += o.negative
	v.aboveTop += o.aboveTop
	v.sum += o.sum
	v.nonZero += o.nonZero
	v.last = o.last
	if o.hist != nil {
		if v.hist == nil {
			v.hist = newHistogram()
		}
		v.hist.Merge(o.hist)
	}
}

// customLine is a custom metric in a line: `hist` for a trend (µs, as k6's own trends; a plain
// number's trend holds the number times 1000 alike) with `time` (whether it holds times),
// `negative` (samples below 0 left out) and `aboveTop` (samples above the histogram's top, kept
// at the top), `nonZero` for a rate, `sum` for a counter, `value` (the last) and `max` for a gauge.
type customLine struct {
	Type     string   `json:"type"`
	Count    int64    `json:"count"`
	Time     *bool    `json:"time,omitempty"`
	Negative int64    `json:"negative,omitempty"`
	AboveTop int64    `json:"aboveTop,omitempty"`
	NonZero  *int64   `json:"nonZero,omitempty"`
	Sum      *float64 `json:"sum,omitempty"`
	Value    *float64 `json:"value,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	Hist     string   `json:"hist,omitempty"`
}

func (v *customValue) line(enc *encoder) (customLine, error) {
	l := customLine{Type: v.typ.String(), Count: v.count}
	switch v.typ {
	case metrics.Trend:
		h, err := enc.encode(v.hist)
		if err != nil {
			return l, err
		}
		t := v.time
		l.Hist, l.Time, l.Negative, l.AboveTop = h, &t, v.negative, v.aboveTop
	case metrics.Rate:
		n := v.nonZero
		l.NonZero = &n
	case metrics.Counter:
		s := v.sum
		l.Sum = &s
	case metrics.Gauge:
		last, max := v.last, v.max
		l.Value, l.Max = &last, &max
	}
	return l, nil
}

// customRegistry names the run's custom metrics by id, in the order they first appeared;
// append-only and guarded by the output's mu, like the check registry.
type customRegistry struct {
	ids     map[string]int
	names   []string
	groups  int
	dropped int64
}

// Registry answers besides an id: a k6 metric, and a custom one past maxCustom.
const (
	notCustom   = -1
	customAbove = -2
)

// id is the metric's id, or -1 for a built-in metric, or -1 for a custom one past maxCustom (its
// samples are counted as dropped). A group's duration (group is true, name from
// groupDurationName) is kept like a custom trend, up to maxGroups of them. Every answer is
// remembered, so a metric costs one map lookup.
func (r *customRegistry) id(name string, group bool) int {
	id, ok := r.ids[name]
	if !ok {
		if r.ids == nil {
			r.ids = map[string]int{}
		}
		switch {
		case !group && isBuiltin(name):
			id = notCustom
		case group && r.groups >= maxGroups, !group && len(r.names)-r.groups >= maxCustom:
			id = customAbove
		default:
			id = len(r.names)
			r.names = append(r.names, name)
			if group {
				r.groups++
			}
		}
		r.ids[name] = id
	}
	if id == customAbove {
		r.dropped++
		return notCustom
	}
	return id
}

// bucketCustom are one second's custom metrics by id.
type bucketCustom struct {
	byID []customValue
}

func (c *bucketCustom) reset() {
	for i := range c.byID {
		c.byID[i].reset()
	}
}

func (c *bucketCustom) record(id int, s *metrics.Sample) {
	for len(c.byID) <= id {
		c.byID = append(c.byID, customValue{})
	}
	c.byID[id].record(s)
}

func (c *bucketCustom) lines(enc *encoder, names []string) (map[string]customLine, error) {
	var out map[string]customLine
	for id := range c.byID {
		v := &c.byID[id]
		if !v.used {
			continue
		}
		l, err := v.line(enc)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = map[string]customLine{}
		}
		out[names[id]] = l
	}
	return out, nil
}

func (c *bucketCustom) add(o *bucketCustom) {
	for len(c.byID) < len(o.byID) {
		c.byID = append(c.byID, customValue{})
	}
	for id := range o.byID {
		c.byID[id].add(&o.byID[id])
	}
}
