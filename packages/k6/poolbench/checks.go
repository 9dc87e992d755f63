package poolbench

import "go.k6.io/k6/metrics"

// maxChecks bounds the check names (with their group) kept per run: a script that names its
// checks after each request must not grow the output's memory or its lines. Samples of further
// names are counted together as the overflow.
const maxChecks = 64

// checkKey is one check as k6's end-of-test summary lists it: its name (the `check` tag) in its
// group (the `group` tag: "" for the root, "::outer::inner" for nested groups).
type checkKey struct{ group, name string }

// checkCount is the passes and fails of k6's `checks` rate metric: a sample of value 1 passed.
type checkCount struct {
	Passes int64 `json:"passes"`
	Fails  int64 `json:"fails"`
}

func (c *checkCount) note(pass bool) {
	if pass {
		c.Passes++
	} else {
		c.Fails++
	}
}

func (c *checkCount) add(o checkCount) {
	c.Passes += o.Passes
	c.Fails += o.Fails
}

// checkLine is one check's passes and fails in a second or over the run.
type checkLine struct {
	Name   string `json:"name"`
	Group  string `json:"group,omitempty"`
	Passes int64  `json:"passes"`
	Fails  int64  `json:"fails"`
}

// checkRegistry gives each check name a small id in the order they first appear, so a bucket
// counts checks in a slice and lines list them in the script's order. Append-only and guarded by
// the output's mu: a copy of names taken under mu stays valid for the ids below its length.
type checkRegistry struct {
	ids   map[checkKey]int
	names []checkKey
}

// id is the check's id, or -1 when the registry is full and the sample counts as overflow.
func (r *checkRegistry) id(tags *metrics.TagSet) int {
	var k checkKey
	if tags != nil {
		k.name, _ = tags.Get("check")
		k.group, _ = tags.Get("group")
	}
	if id, ok := r.ids[k]; ok {
		return id
	}
	if len(r.names) >= maxChecks {
		return -1
	}
	if r.ids == nil {
		r.ids = map[checkKey]int{}
	}
	id := len(r.names)
	r.ids[k] = id
	r.names = append(r.names, k)
	return id
}

// bucketChecks are one second's check counts by id, and those of names past maxChecks.
type bucketChecks struct {
	byID     []checkCount
	overflow checkCount
	used     bool
}

func (c *bucketChecks) reset() {
	clear(c.byID)
	c.byID = c.byID[:0]
	c.overflow = checkCount{}
	c.used = false
}

func (c *bucketChecks) note(id int, pass bool) {
	c.used = true
	if id < 0 {
		c.overflow.note(pass)
		return
	}
	for len(c.byID) <= id {
		c.byID = append(c.byID, checkCount{})
	}
	c.byID[id].note(pass)
}

// lines lists the checks that had samples, by id; names must hold every id used.
func (c *bucketChecks) lines(names []checkKey) []checkLine {
	var out []checkLine
	for id, n := range c.byID {
		if n.Passes+n.Fails == 0 {
			continue
		}
		out = append(out, checkLine{Name: names[id].name, Group: names[id].group, Passes: n.Passes, Fails: n.Fails})
	}
	return out
}

// checkTotals adds up the written seconds' checks for the end line. Only the closing goroutine
// (then Stop) touches it.
type checkTotals struct {
	bucketChecks
}

func (t *checkTotals) addBucket(c *bucketChecks) {
	if !c.used {
		return
	}
	t.used = true
	for len(t.byID) < len(c.byID) {
		t.byID = append(t.byID, checkCount{})
	}
	for id, n := range c.byID {
		t.byID[id].add(n)
	}
	t.overflow.add(c.overflow)
}

// overflowOrNil is the overflow for a line: absent unless a name past maxChecks had samples.
func (c *bucketChecks) overflowOrNil() *checkCount {
	if c.overflow.Passes+c.overflow.Fails == 0 {
		return nil
	}
	o := c.overflow
	return &o
}
