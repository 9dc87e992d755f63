package poolbench

import (
	"time"

	"go.k6.io/k6/metrics"
)

// loadSpan is the load phase as the output can observe it: k6 tells an output
// nothing about when setup() ended or teardown() began, but every sample of
// the load carries its own time and no ::setup/::teardown group tag.
//
//   - start: the earliest start of a load sample. An iteration_duration sample is
//     stamped at the iteration's end with its duration as value, so end − value is
//     the exact moment that iteration began; every other sample counts with its
//     own time (a request's sample is stamped when it ended). When the first
//     iteration completes (any executor that starts with load), start is the
//     moment the executors began the first iteration.
//   - end: the latest time of a load sample, i.e. when the last request or
//     iteration of the load ended.
//
// The vus and vus_max gauges are left out: k6 emits them every second from before setup() to
// after teardown(), so it says nothing about the load.
type loadSpan struct {
	start, end time.Time
	seen       bool
}

func isLoadMetric(name string) bool {
	return name != "vus" && name != "vus_max" && (trendIndex(name) >= 0 || isCounted(name))
}

func (l *loadSpan) note(s *metrics.Sample) {
	if !isLoadMetric(s.Metric.Name) {
		return
	}
	start, end := s.Time, s.Time
	if s.Metric.Name == "iteration_duration" {
		start = s.Time.Add(-time.Duration(s.Value * float64(time.Millisecond)))
	}
	if !l.seen || start.Before(l.start) {
		l.start = start
	}
	if !l.seen || end.After(l.end) {
		l.end = end
	}
	l.seen = true
}

// millis returns start and end as unix milliseconds, or nils before any load.
func (l *loadSpan) millis() (*int64, *int64) {
	if !l.seen {
		return nil, nil
	}
	start, end := l.start.UnixMilli(), l.end.UnixMilli()
	return &start, &end
}
