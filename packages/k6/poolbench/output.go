// Package poolbench is a k6 output extension that aggregates samples into
// one-second buckets (by each sample's own timestamp) and writes one NDJSON
// line per closed second with HDR histograms, so a run of any length costs
// constant memory and a few KB of output per second.
package poolbench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/sirupsen/logrus"
	"go.k6.io/k6/metrics"
	"go.k6.io/k6/output"
	"golang.org/x/sys/unix"
)

const (
	// defaultGrace is how long a second stays open after it ended, for samples
	// that reach the output late. k6 stamps an HTTP sample with the request's end
	// and hands samples to outputs every 50 ms, so on a quiet machine a sample
	// arrives within ~60 ms; the end line's maxLagMs shows what a run saw, and
	// lateSamples what a too-short grace cost it.
	defaultGrace = 1 * time.Second
	// graceEnv overrides defaultGrace, in milliseconds (k6's environment).
	graceEnv  = "K6_POOLBENCH_GRACE_MS"
	closeTick = 100 * time.Millisecond
)

// Output implements output.Output for `--out poolbench=<path>`.
type Output struct {
	path   string
	w      io.Writer
	closer io.Closer
	bw     *bufio.Writer
	logger logrus.FieldLogger
	grace  time.Duration
	now    func() time.Time
	// manualClose leaves closing to explicit tick calls (unit tests).
	manualClose bool
	allocated   int

	mu          sync.Mutex
	open        map[int64]*bucket
	free        []*bucket
	closedBelow int64 // every second < closedBelow has been written
	late        int64
	lateReqs    int64
	// maxLag is the longest a load sample took from its timestamp to AddMetricSamples.
	maxLag time.Duration
	// Per request name (k6's `name` tag), over the whole load: the steps of a flow, the requests
	// of a mix. Guarded by mu; the last tag set's step is cached as tag sets are interned.
	steps        map[string]*stepStats
	stepOverflow int64
	lastStepTags *metrics.TagSet
	lastStep     *stepStats
	// The load phase as the samples show it (see load.go); guarded by mu.
	load loadSpan
	// Check names by id, guarded by mu (see checks.go).
	checkReg checkRegistry
	// The tagged series the script's thresholds name, guarded by mu (see submetrics.go).
	sub *subMetrics
	// The script's own metrics and each group's duration by id, guarded by mu (see custom.go).
	customReg customRegistry
	// The last tag set isLifecycle looked at and its answer: tag sets are interned, and the
	// samples of one request share one, so the group lookup runs about once per request.
	lastTags      *metrics.TagSet
	lastLifecycle bool

	// Touched only by the single closing goroutine, then by Stop after it ended.
	enc      *encoder
	seconds  int64
	firstTS  int64
	lastTS   int64
	totals   counters
	checks   checkTotals
	custom   bucketCustom
	writeErr error

	// started is when k6 started the output, just before setup(); Stop-started
	// is the output's open time (setup, load and teardown), reported as durationMs.
	started time.Time

	stop chan struct{}
	done chan struct{}
}

var _ output.WithStopWithTestError = (*Output)(nil)

// New is the output constructor k6 calls for `--out poolbench=<path>`.
// The path is a file (truncated), a fifo, /dev/fd/N, or "-" for k6's stdout.
func New(p output.Params) (output.Output, error) {
	if p.ConfigArgument == "" {
		return nil, errors.New("poolbench output needs a destination: --out poolbench=<file|/dev/fd/N|->")
	}
	grace, err := graceFrom(p.Environment)
	if err != nil {
		return nil, err
	}
	o := newOutput(p.Logger, grace, time.Now)
	if o.sub, err = newSubMetrics(p.ScriptOptions.Thresholds); err != nil {
		return nil, fmt.Errorf("poolbench output: a threshold's metric: %w", err)
	}
	o.path = p.ConfigArgument
	if o.path == "-" {
		o.w = p.StdOut
	}
	return o, nil
}

// graceFrom reads the grace period from k6's environment, or returns the default.
func graceFrom(env map[string]string) (time.Duration, error) {
	v, ok := env[graceEnv]
	if !ok || v == "" {
		return defaultGrace, nil
	}
	ms, err := strconv.Atoi(v)
	if err != nil || ms < 0 || ms > 60_000 {
		return 0, fmt.Errorf("poolbench output: %s must be a whole number of milliseconds from 0 to 60000, got %q", graceEnv, v)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

func newOutput(logger logrus.FieldLogger, grace time.Duration, now func() time.Time) *Output {
	if logger == nil {
		logger = logrus.StandardLogger()
	}
	return &Output{
		logger:      logger.WithField("output", "poolbench"),
		grace:       grace,
		now:         now,
		open:        map[int64]*bucket{},
		steps:       map[string]*stepStats{},
		closedBelow: math.MinInt64,
		firstTS:     math.MinInt64,
		enc:         newEncoder(),
		sub:         &subMetrics{keySets: map[string][][]string{}, series: map[string]*subMetricSeries{}},
	}
}

// openDestination opens a file or fifo (truncating a file; O_TRUNC is ignored
// for fifos), or takes over an inherited descriptor for /dev/fd/N: Node gives a
// child's extra stdio as a socketpair, which cannot be re-opened by path.
func openDestination(path string) (*os.File, error) {
	if rest, ok := strings.CutPrefix(path, "/dev/fd/"); ok {
		if fd, err := strconv.Atoi(rest); err == nil && fd > 2 {
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
				return nil, fmt.Errorf("%s is not an open descriptor: %w", path, err)
			}
			return os.NewFile(uintptr(fd), path), nil
		}
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// Description is shown by `k6 run`.
func (o *Output) Description() string {
	return fmt.Sprintf("poolbench (%s, 1 s HDR buckets)", o.path)
}

// Start opens the destination and starts the goroutine that closes seconds.
func (o *Output) Start() error {
	if o.w == nil {
		f, err := openDestination(o.path)
		if err != nil {
			return fmt.Errorf("poolbench output: %w", err)
		}
		o.w, o.closer = f, f
	}
	o.started = o.now()
	o.bw = bufio.NewWriterSize(o.w, 64<<10)
	o.stop, o.done = make(chan struct{}), make(chan struct{})
	if o.manualClose {
		close(o.done)
	} else {
		go o.loop()
	}
	return nil
}

// tick closes every second that ended more than the grace period before now.
func (o *Output) tick(now time.Time) {
	o.closeBefore(now.Add(-o.grace).Unix())
}

func (o *Output) loop() {
	defer close(o.done)
	t := time.NewTicker(closeTick)
	defer t.Stop()
	for {
		select {
		case <-o.stop:
			return
		case <-t.C:
			o.tick(o.now())
		}
	}
}

// AddMetricSamples aggregates in place: it is called from k6's output
// goroutine, and recording into a histogram is cheaper than buffering.
func (o *Output) AddMetricSamples(containers []metrics.SampleContainer) {
	arrival := o.now()
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, c := range containers {
		for _, s := range c.GetSamples() {
			o.addLocked(&s, arrival)
		}
	}
}

func (o *Output) addLocked(s *metrics.Sample, arrival time.Time) {
	// setup() and teardown() are not load: a readiness request in setup() would otherwise add one
	// request to a fixed-request run and its latency to the first second.
	if o.isLifecycle(s) {
		return
	}
	if lag := arrival.Sub(s.Time); lag > o.maxLag {
		o.maxLag = lag
	}
	sec := s.Time.Unix()
	if sec < o.closedBelow {
		if trendIndex(s.Metric.Name) >= 0 || isCounted(s.Metric.Name) {
			o.late++
			if s.Metric.Name == "http_reqs" {
				o.lateReqs += int64(s.Value)
			}
		}
		return
	}
	o.load.note(s)
	o.recordStep(s)
	b := o.open[sec]
	if b == nil {
		if n := len(o.free); n > 0 {
			b, o.free = o.free[n-1], o.free[:n-1]
		} else {
			b = newBucket()
			o.allocated++
		}
		b.reset(sec)
		o.open[sec] = b
	}
	o.sub.record(s, &b.sub)
	if s.Metric.Name == "checks" {
		b.checks.note(o.checkReg.id(s.Tags), s.Value != 0)
		return
	}
	if !b.record(s) {
		id := -1
		if s.Metric.Name == "group_duration" {
			id = o.customReg.id(groupDurationName(s.Tags), true)
		} else {
			id = o.customReg.id(s.Metric.Name, false)
		}
		if id >= 0 {
			b.custom.record(id, s)
		}
	}
}

func (o *Output) isLifecycle(s *metrics.Sample) bool {
	if s.Tags == nil {
		return false
	}
	if s.Tags != o.lastTags {
		g, ok := s.Tags.Get("group")
		o.lastTags, o.lastLifecycle = s.Tags, ok && (g == "::setup" || g == "::teardown")
	}
	return o.lastLifecycle
}

// maxSteps bounds the names kept per run: a user script naming requests by URL must not grow
// the output's memory; samples of further names are counted in stepsOverflow.
const maxSteps = 32

// stepStats is one request name's requests, failures and latency over the load.
type stepStats struct {
	requests int64
	failed   int64
	hist     *hdr.Histogram
}

func (o *Output) recordStep(s *metrics.Sample) {
	var field int
	switch s.Metric.Name {
	case "http_req_duration":
		field = 0
	case "http_reqs":
		field = 1
	case "http_req_failed", checkFailedMetric:
		field = 2
	default:
		return
	}
	st := o.stepOf(s)
	if st == nil {
		if field == 1 {
			o.stepOverflow += int64(s.Value)
		}
		return
	}
	switch field {
	case 0:
		_ = st.hist.RecordValue(micros(s.Value))
	case 1:
		st.requests += int64(s.Value)
	default:
		if s.Value != 0 {
			st.failed++
		}
	}
}

func (o *Output) stepOf(s *metrics.Sample) *stepStats {
	if s.Tags == nil {
		return nil
	}
	if s.Tags == o.lastStepTags {
		return o.lastStep
	}
	var st *stepStats
	if name, ok := s.Tags.Get("name"); ok {
		st = o.steps[name]
		if st == nil && len(o.steps) < maxSteps {
			st = &stepStats{hist: newHistogram()}
			o.steps[name] = st
		}
	}
	o.lastStepTags, o.lastStep = s.Tags, st
	return st
}

func isCounted(name string) bool {
	switch name {
	case "http_reqs", "http_req_failed", checkFailedMetric, "checks", "data_sent", "data_received", "iterations", "dropped_iterations", "vus", "vus_max":
		return true
	}
	return false
}

// closeBefore writes and recycles every bucket for a second < threshold.
// Only one goroutine calls it at a time (the loop, then Stop).
func (o *Output) closeBefore(threshold int64) {
	o.mu.Lock()
	if threshold > o.closedBelow {
		o.closedBelow = threshold
	}
	// ids below len(names) never change: the registries only append
	names, customNames, subNames := o.checkReg.names, o.customReg.names, o.sub.names
	var closing []*bucket
	for sec, b := range o.open {
		if sec < threshold {
			closing = append(closing, b)
			delete(o.open, sec)
		}
	}
	o.mu.Unlock()
	if len(closing) == 0 {
		return
	}
	slices.SortFunc(closing, func(a, b *bucket) int { return int(a.sec - b.sec) })
	for _, b := range closing {
		o.emit(b, names, customNames, subNames)
	}
	o.flush()
	o.mu.Lock()
	o.free = append(o.free, closing...)
	o.mu.Unlock()
}

func (o *Output) emit(b *bucket, checkNames []checkKey, customNames, subNames []string) {
	if o.totals.Status == nil {
		o.totals.Status = map[string]int64{}
	}
	o.totals.add(&b.c)
	o.checks.addBucket(&b.checks)
	o.custom.add(&b.custom)
	o.seconds++
	if o.firstTS == math.MinInt64 {
		o.firstTS = b.sec
	}
	o.lastTS = b.sec
	l, err := b.line(o.enc, checkNames, customNames, subNames)
	if err != nil {
		o.fail(err)
		return
	}
	o.writeJSON(l)
}

func (o *Output) writeJSON(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		o.fail(err)
		return
	}
	data = append(data, '\n')
	if _, err := o.bw.Write(data); err != nil {
		o.fail(err)
	}
}

func (o *Output) flush() {
	if err := o.bw.Flush(); err != nil {
		o.fail(err)
	}
}

func (o *Output) fail(err error) {
	if o.writeErr == nil {
		o.writeErr = err
		o.logger.WithError(err).Error("poolbench output: cannot write")
	}
}

// Stop flushes every open second and the end line.
func (o *Output) Stop() error { return o.StopWithTestError(nil) }

// StopWithTestError is what k6 calls at the end; the test error, if any,
// is recorded in the end line so the reader knows why the run ended.
func (o *Output) StopWithTestError(testErr error) error {
	close(o.stop)
	<-o.done
	o.closeBefore(math.MaxInt64)
	o.mu.Lock()
	var err error
	end := endLine{
		V: 1, Type: "end", Seconds: o.seconds, LateSamples: o.late, LateRequests: o.lateReqs, Totals: o.totals,
		DurationMs: o.now().Sub(o.started).Milliseconds(),
		MaxLagMs:   o.maxLag.Milliseconds(), GraceMs: o.grace.Milliseconds(),
	}
	end.LoadStartMs, end.LoadEndMs = o.load.millis()
	end.Checks, end.ChecksOverflow = o.checks.lines(o.checkReg.names), o.checks.overflowOrNil()
	if len(o.sub.order) > 0 {
		if end.SubMetrics, err = o.sub.lines(o.enc); err != nil {
			o.fail(err)
		}
		end.SubMetricsDropped = o.sub.dropped
	}
	if end.Custom, err = o.custom.lines(o.enc, o.customReg.names); err != nil {
		o.fail(err)
	}
	end.CustomDropped = o.customReg.dropped
	if len(o.steps) > 0 {
		end.Steps = make(map[string]stepLine, len(o.steps))
		for name, st := range o.steps {
			hist, err := o.enc.encode(st.hist)
			if err != nil {
				o.fail(err)
				continue
			}
			end.Steps[name] = stepLine{Requests: st.requests, Failed: st.failed, Hist: hist}
		}
		end.StepsOverflow = o.stepOverflow
	}
	o.mu.Unlock()
	if end.Totals.Status == nil {
		end.Totals.Status = map[string]int64{}
	}
	if o.seconds > 0 {
		first, last := o.firstTS, o.lastTS
		end.FirstTS, end.LastTS = &first, &last
	}
	if testErr != nil {
		end.Error = testErr.Error()
	}
	if end.LateSamples > 0 {
		o.logger.Warnf("poolbench output: %d samples arrived after their second was closed", end.LateSamples)
	}
	o.writeJSON(end)
	o.flush()
	if o.closer != nil {
		if err := o.closer.Close(); err != nil && o.writeErr == nil {
			o.writeErr = err
		}
	}
	return o.writeErr
}
