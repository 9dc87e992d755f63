package poolbench

import "testing"

// The hot-path switch and the ordered list must name the same metrics at the same positions,
// or a histogram would be written under another metric's name.
func TestTrendIndexAgreesWithTrendMetrics(t *testing.T) {
	for i, name := range trendMetrics {
		if got := trendIndex(name); got != i {
			t.Errorf("trendIndex(%q) = %d, want %d (its place in trendMetrics)", name, got, i)
		}
	}
	// every k6 built-in trend that is not in the list must be "not kept"
	for _, name := range []string{"http_req_sending", "http_req_receiving", "group_duration", "vus", "http_reqs", "iterations", "data_sent", ""} {
		if got := trendIndex(name); got != -1 {
			t.Errorf("trendIndex(%q) = %d, want -1: it is not in trendMetrics", name, got)
		}
	}
	seen := map[int]bool{}
	for _, name := range trendMetrics {
		seen[trendIndex(name)] = true
	}
	if len(seen) != len(trendMetrics) {
		t.Errorf("trendMetrics has %d names but trendIndex maps them to %d places", len(trendMetrics), len(seen))
	}
}
