package poolbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/sirupsen/logrus"
	"go.k6.io/k6/metrics"
	"go.k6.io/k6/output"
	"golang.org/x/sys/unix"
)

type fixture struct {
	t    *testing.T
	reg  *metrics.Registry
	out  *Output
	buf  *bytes.Buffer
	base time.Time
	// clock is the output's now(): when samples arrive, and when it stops.
	clock time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	logger := logrus.New()
	logger.SetOutput(&bytes.Buffer{})
	base := time.Unix(1_000_000, 0)
	f := &fixture{t: t, reg: metrics.NewRegistry(), base: base, clock: base, buf: &bytes.Buffer{}}
	o := newOutput(logger, 2*time.Second, func() time.Time { return f.clock })
	o.manualClose = true
	o.w = f.buf
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	f.out = o
	return f
}

func (f *fixture) metric(name string) *metrics.Metric {
	typ, unit := metrics.Counter, metrics.Default
	switch {
	case trendIndex(name) >= 0, name == "group_duration":
		typ, unit = metrics.Trend, metrics.Time
	case name == "http_req_failed", name == "checks":
		typ = metrics.Rate
	case name == "vus":
		typ = metrics.Gauge
	}
	return f.reg.MustNewMetric(name, typ, unit)
}

// add sends one sample at base+offset seconds.
func (f *fixture) add(name string, offset float64, value float64, tags map[string]string) {
	ts := f.reg.RootTagSet()
	for k, v := range tags {
		ts = ts.With(k, v)
	}
	s := metrics.Sample{
		TimeSeries: metrics.TimeSeries{Metric: f.metric(name), Tags: ts},
		Time:       f.base.Add(time.Duration(offset * float64(time.Second))),
		Value:      value,
	}
	f.out.AddMetricSamples([]metrics.SampleContainer{metrics.Samples{s}})
}

func (f *fixture) tickAt(offset float64) {
	f.out.tick(f.base.Add(time.Duration(offset * float64(time.Second))))
}

type line struct {
	Type         string            `json:"type"`
	TS           int64             `json:"ts"`
	Requests     int64             `json:"requests"`
	Failed       int64             `json:"failed"`
	Status       map[string]int64  `json:"status"`
	DataSent     int64             `json:"dataSentBytes"`
	DataReceived int64             `json:"dataReceivedBytes"`
	Iterations   int64             `json:"iterations"`
	Dropped      int64             `json:"droppedIterations"`
	VUs          *int64            `json:"vus"`
	VUsMax       *int64            `json:"vusMax"`
	VUsAllocated *int64            `json:"vusAllocated"`
	Hist         map[string]string `json:"hist"`
	Seconds      int64             `json:"seconds"`
	LateSamples  int64             `json:"lateSamples"`
	LateRequests int64             `json:"lateRequests"`
	DurationMs   int64             `json:"durationMs"`
	LoadStartMs  *int64            `json:"loadStartMs"`
	LoadEndMs    *int64            `json:"loadEndMs"`
	Totals       struct {
		Requests int64            `json:"requests"`
		Status   map[string]int64 `json:"status"`
	} `json:"totals"`
	Error string `json:"error"`
}

func (f *fixture) lines() []line {
	f.t.Helper()
	var out []line
	sc := bufio.NewScanner(bytes.NewReader(f.buf.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			f.t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

func TestSecondClosesOnlyAfterGrace(t *testing.T) {
	f := newFixture(t)
	f.add("http_reqs", 0.2, 1, map[string]string{"status": "200"})
	f.add("http_reqs", 0.9, 1, map[string]string{"status": "200"})
	f.add("http_reqs", 1.5, 1, map[string]string{"status": "200"})

	f.tickAt(2.9) // second 0 ended at 1.0; grace runs until 3.0
	if n := len(f.lines()); n != 0 {
		t.Fatalf("second closed before its grace period ended: %d lines", n)
	}
	f.tickAt(3.0)
	ls := f.lines()
	if len(ls) != 1 || ls[0].Type != "second" || ls[0].TS != f.base.Unix() || ls[0].Requests != 2 {
		t.Fatalf("want second %d with 2 requests, got %+v", f.base.Unix(), ls)
	}
}

func TestLateSamplesAreCountedNotMerged(t *testing.T) {
	f := newFixture(t)
	f.add("http_reqs", 0.5, 1, map[string]string{"status": "200"})
	f.tickAt(3.0)
	f.add("http_reqs", 0.99, 1, map[string]string{"status": "200"}) // its second is gone
	f.add("http_req_duration", 0.99, 5, nil)
	f.add("http_reqs", 1.1, 1, map[string]string{"status": "200"})
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := f.lines()
	if len(ls) != 3 {
		t.Fatalf("want 2 seconds + end, got %d lines", len(ls))
	}
	if ls[0].Requests != 1 || ls[1].Requests != 1 || ls[1].TS != f.base.Unix()+1 {
		t.Fatalf("late sample leaked into a bucket: %+v", ls[:2])
	}
	end := ls[2]
	if end.Type != "end" || end.LateSamples != 2 || end.LateRequests != 1 || end.Seconds != 2 || end.Totals.Requests != 2 {
		t.Fatalf("bad end line: %+v", end)
	}
}

func TestEndLineReportsTheLongestSampleLagAndTheGrace(t *testing.T) {
	f := newFixture(t)
	f.clock = f.base.Add(1300 * time.Millisecond)
	f.add("http_reqs", 0.9, 1, map[string]string{"status": "200"})    // 400 ms on its way
	f.add("http_req_duration", 1.2, 5, nil)                           // 100 ms
	f.add("http_reqs", 0.2, 1, map[string]string{"group": "::setup"}) // setup is not load
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := f.lines()
	var end struct {
		MaxLagMs int64 `json:"maxLagMs"`
		GraceMs  int64 `json:"graceMs"`
	}
	last := f.buf.Bytes()
	last = last[bytes.LastIndexByte(last[:len(last)-1], '\n')+1:]
	if err := json.Unmarshal(last, &end); err != nil {
		t.Fatal(err)
	}
	if ls[len(ls)-1].Type != "end" || end.MaxLagMs != 400 || end.GraceMs != 2000 {
		t.Fatalf("end line: maxLagMs %d graceMs %d, want 400 and 2000", end.MaxLagMs, end.GraceMs)
	}
}

func TestGraceComesFromTheEnvironment(t *testing.T) {
	if g, err := graceFrom(nil); err != nil || g != defaultGrace {
		t.Fatalf("no setting: %v %v, want the default", g, err)
	}
	if g, err := graceFrom(map[string]string{graceEnv: "750"}); err != nil || g != 750*time.Millisecond {
		t.Fatalf("750: got %v %v", g, err)
	}
	for _, bad := range []string{"-1", "1s", "60001", "1e3"} {
		if _, err := graceFrom(map[string]string{graceEnv: bad}); err == nil || !strings.Contains(err.Error(), graceEnv) {
			t.Fatalf("%q was accepted or the error does not name the setting: %v", bad, err)
		}
	}
}

func TestCountersStatusAndVUs(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 3; i++ {
		f.add("http_reqs", 0.1, 1, map[string]string{"status": "200"})
		f.add("http_req_failed", 0.1, 0, nil)
	}
	f.add("http_reqs", 0.2, 1, map[string]string{"status": "503"})
	f.add("http_req_failed", 0.2, 1, nil)
	f.add("data_sent", 0.3, 100, nil)
	f.add("data_received", 0.3, 250, nil)
	f.add("data_received", 0.4, 50, nil)
	f.add("iterations", 0.5, 1, nil)
	f.add("dropped_iterations", 0.5, 2, nil)
	f.add("vus", 0.1, 7, nil)
	f.add("vus", 0.6, 9, nil)
	f.add("vus", 0.8, 4, nil)
	f.add("vus_max", 0.1, 20, nil)
	f.add("vus_max", 0.9, 50, nil) // allocated VUs grow (ramping arrival rate)
	f.add("checks", 0.8, 1, nil)   // not kept
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	l := f.lines()[0]
	if l.Requests != 4 || l.Failed != 1 || l.Status["200"] != 3 || l.Status["503"] != 1 {
		t.Fatalf("requests/status wrong: %+v", l)
	}
	if l.DataSent != 100 || l.DataReceived != 300 || l.Iterations != 1 || l.Dropped != 2 {
		t.Fatalf("counters wrong: %+v", l)
	}
	if l.VUs == nil || *l.VUs != 4 || *l.VUsMax != 9 {
		t.Fatalf("vus wrong: %+v %+v", l.VUs, l.VUsMax)
	}
	if l.VUsAllocated == nil || *l.VUsAllocated != 50 {
		t.Fatalf("allocated VUs (vus_max) wrong: %+v", l.VUsAllocated)
	}
	if len(l.Hist) != 0 {
		t.Fatalf("empty histograms must be omitted, got %v", l.Hist)
	}
}

func TestAFailedCheckCountsTheRequestAsFailed(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 4; i++ {
		f.add("http_reqs", 0.1, 1, map[string]string{"status": "200"})
		f.add("http_req_failed", 0.1, 0, nil)
	}
	f.add("poolbench_check_failed", 0.2, 1, nil) // 200, but the body was wrong
	f.add("http_reqs", 1.3, 1, map[string]string{"status": "500"})
	f.add("http_req_failed", 1.3, 1, nil)
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	type failures struct {
		Type        string `json:"type"`
		Failed      int64  `json:"failed"`
		CheckFailed int64  `json:"checkFailed"`
		Totals      struct {
			Failed      int64 `json:"failed"`
			CheckFailed int64 `json:"checkFailed"`
		} `json:"totals"`
	}
	var lines []failures
	for _, raw := range bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n")) {
		var l failures
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if len(lines) != 3 || lines[0].Failed != 1 || lines[0].CheckFailed != 1 || lines[1].Failed != 1 || lines[1].CheckFailed != 0 {
		t.Fatalf("seconds: %+v", lines)
	}
	if end := lines[2]; end.Type != "end" || end.Totals.Failed != 2 || end.Totals.CheckFailed != 1 {
		t.Fatalf("end line: %+v", end)
	}
	if bytes.Contains(bytes.Split(f.buf.Bytes(), []byte("\n"))[1], []byte("checkFailed")) {
		t.Fatal("a second without check failures must not carry the field")
	}
}

func TestStepsPerRequestName(t *testing.T) {
	f := newFixture(t)
	for i := 0; i < 3; i++ {
		f.add("http_reqs", 0.1, 1, map[string]string{"name": "login", "status": "200"})
		f.add("http_req_duration", 0.1, float64(10*(i+1)), map[string]string{"name": "login"})
		f.add("http_req_failed", 0.1, 0, map[string]string{"name": "login"})
	}
	f.add("http_reqs", 1.2, 1, map[string]string{"name": "me", "status": "200"})
	f.add("http_req_duration", 1.2, 2, map[string]string{"name": "me"})
	f.add("http_req_failed", 1.2, 0, map[string]string{"name": "me"})
	f.add("poolbench_check_failed", 1.2, 1, map[string]string{"name": "me"})
	f.add("http_reqs", 0.3, 1, map[string]string{"name": "ready", "group": "::setup"}) // not load
	for i := 0; i < maxSteps+3; i++ {                                                  // a script naming requests by URL
		f.add("http_reqs", 1.5, 1, map[string]string{"name": fmt.Sprintf("/u/%d", i)})
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n"))
	var end struct {
		Steps map[string]struct {
			Requests int64  `json:"requests"`
			Failed   int64  `json:"failed"`
			Hist     string `json:"hist"`
		} `json:"steps"`
		StepsOverflow int64 `json:"stepsOverflow"`
	}
	if err := json.Unmarshal(raw[len(raw)-1], &end); err != nil {
		t.Fatal(err)
	}
	login, me := end.Steps["login"], end.Steps["me"]
	if login.Requests != 3 || login.Failed != 0 || me.Requests != 1 || me.Failed != 1 {
		t.Fatalf("steps: login %+v, me %+v", login, me)
	}
	if _, ok := end.Steps["ready"]; ok {
		t.Fatal("a setup() request became a step")
	}
	if len(end.Steps) != maxSteps || end.StepsOverflow != 5 {
		t.Fatalf("kept %d names (want %d), overflow %d requests (want 5)", len(end.Steps), maxSteps, end.StepsOverflow)
	}
	h, err := hdr.Decode([]byte(login.Hist))
	if err != nil {
		t.Fatal(err)
	}
	if h.TotalCount() != 3 || h.Max() < 29_000 || h.Max() > 30_100 {
		t.Fatalf("login latency histogram: %d values, max %d µs", h.TotalCount(), h.Max())
	}
}

func TestHistogramRoundTrip(t *testing.T) {
	f := newFixture(t)
	want := newHistogram()
	for i := 1; i <= 5000; i++ {
		ms := float64(i%997) * 0.37 // 0 .. ~368 ms
		f.add("http_req_duration", 0.5, ms, nil)
		_ = want.RecordValue(micros(ms))
	}
	f.add("iteration_duration", 0.5, 7_200_000, nil) // 2 h: clamped to the 1 h ceiling
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	l := f.lines()[0]
	got, err := hdr.Decode([]byte(l.Hist["http_req_duration"]))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equals(want) {
		t.Fatalf("decoded histogram differs: count %d vs %d, p99 %d vs %d",
			got.TotalCount(), want.TotalCount(), got.ValueAtQuantile(99), want.ValueAtQuantile(99))
	}
	if got.LowestTrackableValue() != 1 || got.HighestTrackableValue() < histMaxMicros || got.SignificantFigures() != 3 {
		t.Fatalf("wrong histogram shape: %d..%d, %d digits", got.LowestTrackableValue(), got.HighestTrackableValue(), got.SignificantFigures())
	}
	it, err := hdr.Decode([]byte(l.Hist["iteration_duration"]))
	if err != nil {
		t.Fatal(err)
	}
	if !it.ValuesAreEquivalent(it.Max(), histMaxMicros) {
		t.Fatalf("out-of-range value not clamped: max %d", it.Max())
	}
}

func TestBucketsAreRecycled(t *testing.T) {
	f := newFixture(t)
	for s := 0; s < 500; s++ {
		f.add("http_req_duration", float64(s)+0.5, float64(s%50), nil)
		f.add("http_reqs", float64(s)+0.5, 1, map[string]string{"status": "200"})
		f.tickAt(float64(s) + 1.1)
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	if f.out.allocated > 4 {
		t.Fatalf("memory grows with run length: %d buckets allocated for 500 s", f.out.allocated)
	}
	ls := f.lines()
	if len(ls) != 501 || ls[500].Seconds != 500 || ls[500].Totals.Requests != 500 {
		t.Fatalf("want 500 seconds + end, got %d lines, end %+v", len(ls), ls[len(ls)-1])
	}
	// A recycled bucket must not carry the previous second's values.
	h, err := hdr.Decode([]byte(ls[499].Hist["http_req_duration"]))
	if err != nil || h.TotalCount() != 1 {
		t.Fatalf("recycled bucket kept old values: %v %v", h, err)
	}
}

func TestEndLineCarriesTestError(t *testing.T) {
	f := newFixture(t)
	if err := f.out.StopWithTestError(errors.New("script deadline")); err != nil {
		t.Fatal(err)
	}
	ls := f.lines()
	if len(ls) != 1 || ls[0].Type != "end" || !strings.Contains(ls[0].Error, "deadline") {
		t.Fatalf("bad end line: %+v", ls)
	}
}

func TestNewWritesToFile(t *testing.T) {
	if _, err := New(output.Params{Logger: logrus.New()}); err == nil {
		t.Fatal("empty destination accepted")
	}
	path := filepath.Join(t.TempDir(), "out.ndjson")
	if err := os.WriteFile(path, []byte("stale content that must go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := New(output.Params{ConfigArgument: path, Logger: logrus.New()})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"v":1,"type":"end"`) {
		t.Fatalf("file not truncated or end line missing: %q", data)
	}
}

func TestInheritedDescriptorDestination(t *testing.T) {
	// A socketpair, as Node passes extra stdio: it cannot be re-opened through /dev/fd.
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	reader := os.NewFile(uintptr(fds[0]), "reader")
	defer reader.Close()
	o, err := New(output.Params{ConfigArgument: fmt.Sprintf("/dev/fd/%d", fds[1]), Logger: logrus.New()})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(reader) // EOF proves Stop closed the descriptor
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"v":1,"type":"end"`) {
		t.Fatalf("got %q", data)
	}
	if _, err := openDestination("/dev/fd/987"); err == nil {
		t.Fatal("a descriptor that is not open was accepted")
	}
}

func TestEndLineCarriesTestDuration(t *testing.T) {
	f := newFixture(t)
	f.out.started = f.base
	f.out.now = func() time.Time { return f.base.Add(12500 * time.Millisecond) }
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	if d := f.lines()[0].DurationMs; d != 12500 {
		t.Fatalf("durationMs = %d, want 12500", d)
	}
}

func TestSetupAndTeardownAreNotLoad(t *testing.T) {
	f := newFixture(t)
	f.add("http_reqs", 0.1, 1, map[string]string{"group": "::setup", "status": "200"})
	f.add("http_req_duration", 0.1, 900, map[string]string{"group": "::setup"})
	f.add("http_reqs", 0.2, 1, map[string]string{"group": "", "status": "200"})
	f.add("http_req_duration", 0.2, 5, map[string]string{"group": ""})
	f.add("http_reqs", 0.9, 1, map[string]string{"group": "::teardown", "status": "200"})
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := f.lines()
	end := ls[len(ls)-1]
	if end.Totals.Requests != 1 {
		t.Fatalf("setup/teardown requests counted: totals %d, want 1", end.Totals.Requests)
	}
	if ls[0].Requests != 1 {
		t.Fatalf("first second has %d requests, want 1", ls[0].Requests)
	}
}
