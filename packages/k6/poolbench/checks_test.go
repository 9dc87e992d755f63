package poolbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

type checksLine struct {
	Type           string      `json:"type"`
	TS             int64       `json:"ts"`
	Checks         []checkLine `json:"checks"`
	ChecksOverflow *checkCount `json:"checksOverflow"`
}

func checkLines(t *testing.T, f *fixture) []checksLine {
	t.Helper()
	var out []checksLine
	for _, raw := range bytes.Split(bytes.TrimSpace(f.buf.Bytes()), []byte("\n")) {
		var l checksLine
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func TestChecksPerNameAndGroupPerSecondAndInTotal(t *testing.T) {
	f := newFixture(t)
	ok := map[string]string{"check": "status is 200", "group": ""}
	body := map[string]string{"check": "body has token", "group": "::login"}
	for i := 0; i < 3; i++ {
		f.add("checks", 0.2, 1, ok)
		f.add("checks", 0.3, float64(i%2), body) // pass, fail, pass
	}
	f.add("checks", 1.4, 0, ok)
	f.add("checks", 0.5, 0, map[string]string{"check": "ready", "group": "::setup"}) // not load
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := checkLines(t, f)
	if len(ls) != 3 {
		t.Fatalf("want 2 seconds and the end line, got %d lines", len(ls))
	}
	want0 := []checkLine{
		{Name: "status is 200", Passes: 3},
		{Name: "body has token", Group: "::login", Passes: 1, Fails: 2},
	}
	if fmt.Sprint(ls[0].Checks) != fmt.Sprint(want0) {
		t.Fatalf("second 0: %+v, want %+v", ls[0].Checks, want0)
	}
	// a second lists only the checks it saw
	if want1 := []checkLine{{Name: "status is 200", Fails: 1}}; fmt.Sprint(ls[1].Checks) != fmt.Sprint(want1) {
		t.Fatalf("second 1: %+v, want %+v", ls[1].Checks, want1)
	}
	wantEnd := []checkLine{
		{Name: "status is 200", Passes: 3, Fails: 1},
		{Name: "body has token", Group: "::login", Passes: 1, Fails: 2},
	}
	if end := ls[2]; end.Type != "end" || fmt.Sprint(end.Checks) != fmt.Sprint(wantEnd) || end.ChecksOverflow != nil {
		t.Fatalf("end: %+v overflow %v, want %+v", end.Checks, end.ChecksOverflow, wantEnd)
	}
}

func TestCheckNamesAreBounded(t *testing.T) {
	f := newFixture(t)
	// a script naming a check after each request
	for i := 0; i < maxChecks+10; i++ {
		f.add("checks", 0.1, float64(i%2), map[string]string{"check": fmt.Sprintf("req %d ok", i)})
	}
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	ls := checkLines(t, f)
	end := ls[len(ls)-1]
	if len(end.Checks) != maxChecks || len(ls[0].Checks) != maxChecks {
		t.Fatalf("kept %d names in the end line and %d in the second, want %d", len(end.Checks), len(ls[0].Checks), maxChecks)
	}
	// the 10 names past the cap: ids 64..73, passing on odd ids
	want := checkCount{Passes: 5, Fails: 5}
	if end.ChecksOverflow == nil || *end.ChecksOverflow != want || ls[0].ChecksOverflow == nil || *ls[0].ChecksOverflow != want {
		t.Fatalf("overflow: end %v, second %v, want %v", end.ChecksOverflow, ls[0].ChecksOverflow, want)
	}
}

func TestScriptsWithoutChecksWriteNoCheckFields(t *testing.T) {
	f := newFixture(t)
	f.add("http_reqs", 0.1, 1, map[string]string{"status": "200"})
	if err := f.out.Stop(); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(f.buf.Bytes(), []byte("checks")) {
		t.Fatalf("lines name checks without any: %s", f.buf.Bytes())
	}
}
