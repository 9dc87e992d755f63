package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func encoded(t *testing.T, h *hdr.Histogram) string {
	t.Helper()
	b64, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return string(b64)
}

// randomLatencies records n log-normal latencies around 1 ms (µs), as a busy
// loopback second looks; seeded, so the test is repeatable.
func randomLatencies(n int) *hdr.Histogram {
	r := rand.New(rand.NewPCG(1, 2))
	h := hdr.New(1, 3_600_000_000, 3)
	for range n {
		_ = h.RecordValue(int64(1000 * math.Exp(0.6*r.NormFloat64())))
	}
	return h
}

func TestMeasureCountsEveryByteAndKeepsSamples(t *testing.T) {
	h := randomLatencies(5000)
	spike := hdr.New(1, 3_600_000_000, 3)
	_ = spike.RecordValues(0, 10_000) // reused connections: all zeros
	_ = spike.RecordValue(1500)       // one new connection
	lines := []string{
		fmt.Sprintf(`{"v":1,"type":"second","ts":1,"requests":700,"hist":{"http_req_duration":%q,"http_req_connecting":%q}}`, encoded(t, h), encoded(t, spike)),
		fmt.Sprintf(`{"v":1,"type":"second","ts":2,"requests":300,"hist":{"http_req_duration":%q}}`, encoded(t, h)),
		`{"v":1,"type":"end","seconds":2,"durationMs":2000}`,
	}
	path := filepath.Join(t.TempDir(), "out.ndjson")
	content := ""
	for _, l := range lines {
		content += l + "\n"
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := measure(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.total != int64(len(content)) || s.seconds != 2 || s.requests != 1000 || s.durationMs != 2000 {
		t.Fatalf("totals: %+v, file %d bytes", s, len(content))
	}
	if want := int64(2 * len(encoded(t, h))); s.hist["http_req_duration"] != want {
		t.Fatalf("duration bytes %d, want %d", s.hist["http_req_duration"], want)
	}

	two, err := reencode(h, 2)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode(two)
	if err != nil {
		t.Fatal(err)
	}
	if back.TotalCount() != h.TotalCount() || back.SignificantFigures() != 2 {
		t.Fatalf("2-digit re-encoding kept %d of %d samples at %d digits", back.TotalCount(), h.TotalCount(), back.SignificantFigures())
	}
	if len(two) >= len(encoded(t, h)) {
		t.Fatalf("2 digits (%d B) should be smaller than 3 (%d B)", len(two), len(encoded(t, h)))
	}
}

func TestModelBytes(t *testing.T) {
	if got := modelBytes(hdr.New(1, 3_600_000_000, 3)); got != 0 {
		t.Fatalf("empty histogram: %v bytes", got)
	}
	// A lone spike among zeros costs tens of bytes, not the Poisson model's
	// astronomically unlikely outcome.
	spike := hdr.New(1, 3_600_000_000, 3)
	_ = spike.RecordValues(0, 10_000)
	_ = spike.RecordValue(1500)
	if got := modelBytes(spike); got > 40 {
		t.Fatalf("spike histogram estimated at %.0f bytes", got)
	}
	// A dense histogram costs less than its zlib encoding but is not free.
	h := randomLatencies(20_000)
	got, zlib := modelBytes(h), float64(len(encoded(t, h)))*3/4
	if got <= 0 || got >= zlib {
		t.Fatalf("dense histogram: estimate %.0f bytes, zlib %.0f", got, zlib)
	}
}
