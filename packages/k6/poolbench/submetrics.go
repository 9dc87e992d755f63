package poolbench

import (
	"sort"
	"strings"

	"go.k6.io/k6/metrics"
)

// maxSeries bounds the tagged series kept per run. The series a threshold names are kept first;
// the rest are the other values of the tags those thresholds name (the same metric by `name`,
// say), so a script that tags each request uniquely fills the cap and its further samples are
// counted as dropped instead of growing the output.
const maxSeries = 50

// tagFilter is one threshold's sub-metric: a metric and the tags it names, in the order written.
type tagFilter struct {
	metric string
	keys   []string
	values []string
}

// subMetricSeries is one metric over the samples carrying certain tag values, over the load; its
// value is kept as a custom metric's (see custom.go), so both read samples by their kind alike.
type subMetricSeries struct {
	id     int    // its place in subMetrics.order, and its id in a second's bucketCustom
	name   string // metric{k:v,…} with the tags in the order the threshold wrote them
	metric string
	tags   map[string]string
	v      customValue
}

// subMetrics keeps the tagged series thresholds need, guarded by the output's mu.
type subMetrics struct {
	// per metric, the tag key lists its thresholds name (deduplicated)
	keySets map[string][][]string
	series  map[string]*subMetricSeries
	order   []*subMetricSeries
	// the series' names by id; append-only, so a copy taken under mu names every id below its length
	names []string
	// samples of series past maxSeries
	dropped int64
}

// newSubMetrics reads the sub-metric thresholds (`http_req_duration{name:login}`) of the script's
// options; without any it keeps nothing and costs one map lookup per sample.
func newSubMetrics(thresholds map[string]metrics.Thresholds) (*subMetrics, error) {
	sm := &subMetrics{keySets: map[string][][]string{}, series: map[string]*subMetricSeries{}}
	names := make([]string, 0, len(thresholds))
	for name := range thresholds {
		names = append(names, name)
	}
	sort.Strings(names)
	var filters []tagFilter
	for _, name := range names {
		metric, tags, err := metrics.ParseMetricName(name)
		if err != nil {
			return nil, err
		}
		if len(tags) == 0 {
			continue
		}
		f := tagFilter{metric: metric}
		for _, kv := range tags {
			k, v, _ := strings.Cut(kv, ":")
			f.keys = append(f.keys, strings.TrimSpace(k))
			f.values = append(f.values, strings.TrimSpace(v))
		}
		filters = append(filters, f)
		if !containsKeys(sm.keySets[metric], f.keys) {
			sm.keySets[metric] = append(sm.keySets[metric], f.keys)
		}
	}
	// the thresholds' own series first: the cap never crowds them out
	for _, f := range filters {
		if len(sm.order) < maxSeries {
			sm.add(f.metric, f.keys, f.values)
		}
	}
	return sm, nil
}

func containsKeys(sets [][]string, keys []string) bool {
	for _, s := range sets {
		if strings.Join(s, "\x00") == strings.Join(keys, "\x00") {
			return true
		}
	}
	return false
}

func seriesName(metric string, keys, values []string) string {
	var b strings.Builder
	b.WriteString(metric)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte(':')
		b.WriteString(values[i])
	}
	b.WriteByte('}')
	return b.String()
}

func (sm *subMetrics) add(metric string, keys, values []string) *subMetricSeries {
	name := seriesName(metric, keys, values)
	tags := make(map[string]string, len(keys))
	for i, k := range keys {
		tags[k] = values[i]
	}
	s := &subMetricSeries{id: len(sm.order), name: name, metric: metric, tags: tags}
	sm.series[name] = s
	sm.order = append(sm.order, s)
	sm.names = append(sm.names, name)
	return s
}

// record adds a load sample to every series of its metric whose tags it carries, over the load
// and in its second's values (sec, by series id).
func (sm *subMetrics) record(s *metrics.Sample, sec *bucketCustom) {
	sets := sm.keySets[s.Metric.Name]
	if len(sets) == 0 || s.Tags == nil {
		return
	}
	var values [8]string
	for _, keys := range sets {
		if len(keys) > len(values) {
			continue
		}
		vals := values[:len(keys)]
		all := true
		for i, k := range keys {
			v, ok := s.Tags.Get(k)
			if !ok {
				all = false
				break
			}
			vals[i] = v
		}
		if !all {
			continue
		}
		name := seriesName(s.Metric.Name, keys, vals)
		ser := sm.series[name]
		if ser == nil {
			if len(sm.order) >= maxSeries {
				sm.dropped++
				continue
			}
			ser = sm.add(s.Metric.Name, keys, append([]string(nil), vals...))
		}
		ser.v.record(s) // a threshold's series learns its type from its first sample
		sec.record(ser.id, s)
	}
}

// subMetricLine is one series over the load, its values as a custom metric's line (`type`
// "none" with only `count` for a series that saw no sample).
type subMetricLine struct {
	Name   string            `json:"name"`
	Metric string            `json:"metric"`
	Tags   map[string]string `json:"tags"`
	customLine
}

func (sm *subMetrics) lines(enc *encoder) ([]subMetricLine, error) {
	out := make([]subMetricLine, 0, len(sm.order))
	for _, s := range sm.order {
		l := subMetricLine{Name: s.name, Metric: s.metric, Tags: s.tags}
		l.customLine = customLine{Type: "none", Count: s.v.count}
		if s.v.used {
			c, err := s.v.line(enc)
			if err != nil {
				return nil, err
			}
			l.customLine = c
		}
		out = append(out, l)
	}
	return out, nil
}
