package poolbench

import "testing"

// The load phase is what rps divides by: setup() (2 s here) and teardown() must not be in it,
// and the vus gauge k6 keeps emitting during both must not stretch it.
func TestEndLineCarriesTheLoadPhase(t *testing.T) {
	f := newFixture(t)
	setup := map[string]string{"group": "::setup", "status": "200"}
	load := map[string]string{"group": "", "status": "200"}
	f.add("vus", 0.05, 0, nil)
	f.add("http_reqs", 1.9, 1, setup)
	f.add("iteration_duration", 2.0, 1950, map[string]string{"group": "::setup"})
	f.add("vus", 1.05, 0, nil)
	// first iteration: began at 2.1 s, its request ended at 2.3 s, the iteration at 2.4 s
	f.add("http_reqs", 2.3, 1, load)
	f.add("iteration_duration", 2.4, 300, load)
	f.add("http_reqs", 7.05, 1, load)
	f.add("iteration_duration", 7.1, 40, load)
	f.add("http_reqs", 7.9, 1, map[string]string{"group": "::teardown", "status": "200"})
	f.add("vus", 8.05, 0, nil)
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := f.lines()
	end := ls[len(ls)-1]
	base := f.base.UnixMilli()
	if end.LoadStartMs == nil || end.LoadEndMs == nil {
		t.Fatalf("end line without load phase: %+v", end)
	}
	if got := *end.LoadStartMs - base; got != 2100 {
		t.Fatalf("loadStartMs = base+%d, want base+2100 (start of the first load iteration)", got)
	}
	if got := *end.LoadEndMs - base; got != 7100 {
		t.Fatalf("loadEndMs = base+%d, want base+7100 (end of the last load sample)", got)
	}
}

func TestEndLineWithoutLoadHasNoLoadPhase(t *testing.T) {
	f := newFixture(t)
	f.add("vus", 0.05, 0, nil)
	f.add("http_reqs", 0.5, 1, map[string]string{"group": "::setup", "status": "200"})
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := f.lines()
	if end := ls[len(ls)-1]; end.LoadStartMs != nil || end.LoadEndMs != nil {
		t.Fatalf("load phase reported without load: %+v", end)
	}
}
