// Command outputsize explains where the bytes of a poolbench NDJSON output go
// and what the alternatives to the specified encoding would weigh, measured on
// the same seconds: used by bench/run.sh for docs/benchmarks.md.
//
//	go run ./cmd/outputsize [-md] out.ndjson...
//
// For every file it prints the bytes per second of test as written, the share
// of each histogram, and re-encodings of the same histograms: without base64,
// at 2 significant digits, without iteration_duration, and an optimistic
// estimate of the best any lossless coder could do at 3 significant digits.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

type line struct {
	Type       string            `json:"type"`
	Requests   int64             `json:"requests"`
	Hist       map[string]string `json:"hist"`
	DurationMs int64             `json:"durationMs"`
}

type sizes struct {
	seconds, requests, durationMs int64
	total                         int64            // every byte of the file
	hist                          map[string]int64 // base64 bytes per metric
	twoDigits                     int64            // base64 bytes of all histograms at 2 significant digits
	model                         float64          // estimated best lossless bytes (binary) at 3 digits
}

func main() {
	md := flag.Bool("md", false, "print Markdown table rows")
	flag.Parse()
	for _, path := range flag.Args() {
		s, err := measure(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "outputsize: %s: %v\n", path, err)
			os.Exit(1)
		}
		report(path, s, *md)
	}
}

func measure(path string) (*sizes, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := &sizes{hist: map[string]int64{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		s.total += int64(len(sc.Bytes())) + 1
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, err
		}
		if l.Type == "end" {
			s.durationMs = l.DurationMs
			continue
		}
		s.seconds++
		s.requests += l.Requests
		for name, b64 := range l.Hist {
			s.hist[name] += int64(len(b64))
			h, err := decode(b64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			two, err := reencode(h, 2)
			if err != nil {
				return nil, err
			}
			s.twoDigits += int64(len(two))
			s.model += modelBytes(h)
		}
	}
	if s.durationMs == 0 {
		return nil, fmt.Errorf("no end line: not a complete poolbench output")
	}
	return s, sc.Err()
}

func decode(b64 string) (*hdr.Histogram, error) {
	return hdr.Decode([]byte(b64)) // the library's encoding is base64 already
}

// reencode records the histogram's values into one of the given precision and
// encodes it as the output does (V2 compressed, base64).
func reencode(h *hdr.Histogram, digits int) (string, error) {
	o := hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), digits)
	for _, b := range h.Distribution() {
		if b.Count > 0 {
			if err := o.RecordValues(b.From, b.Count); err != nil {
				return "", err
			}
		}
	}
	b64, err := o.Encode(hdr.V2CompressedEncodingCookieBase)
	return string(b64), err
}

// modelBytes is an optimistic estimate of the fewest bytes a lossless coder
// could spend on the histogram's counts: each bucket's count is coded with a
// Poisson model whose rate is known from its 15 neighbours on either side
// (a real coder has to learn the shape from what it has already written, so it
// does worse), mixed 999:1 with an Elias-gamma code so lone spikes (a bucket
// of zeros among thousands of reused connections) cost what they should.
func modelBytes(h *hdr.Histogram) float64 {
	counts := h.Export().Counts
	first, last := -1, -1
	for i, c := range counts {
		if c != 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0
	}
	const w = 15
	bits := 0.0
	for i := first; i <= last; i++ {
		lo, hi := max(0, i-w), min(len(counts), i+w+1)
		var sum int64
		for _, c := range counts[lo:hi] {
			sum += c
		}
		lambda := float64(sum-counts[i])/float64(hi-lo-1) + 1e-6
		k := float64(counts[i])
		lg, _ := math.Lgamma(k + 1)
		pPoisson := math.Exp(-lambda + k*math.Log(lambda) - lg)
		pGamma := math.Exp2(-(2*math.Floor(math.Log2(k+1)) + 1)) // Elias gamma of k+1
		bits -= math.Log2(0.999*pPoisson + 0.001*pGamma)
	}
	return bits / 8
}

func report(path string, s *sizes, md bool) {
	secs := float64(s.durationMs) / 1000
	var hist int64
	names := make([]string, 0, len(s.hist))
	for name, n := range s.hist {
		hist += n
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return s.hist[names[i]] > s.hist[names[j]] })
	perSec := func(b float64) float64 { return b / secs }
	other := float64(s.total - hist)
	written := perSec(float64(s.total))
	binary := perSec(other + float64(hist)*3/4)
	two := perSec(other + float64(s.twoDigits))
	noIter := perSec(float64(s.total - s.hist["iteration_duration"]))
	model := perSec(other + s.model*4/3)
	rps := float64(s.requests) / secs
	if md {
		fmt.Printf("| %.0f | %.0f | %.2f | %.0f | %.0f | %.0f | %.0f |\n",
			rps, written, written/rps, binary, noIter, two, model)
		return
	}
	fmt.Printf("%s: %.0f req/s, %.0f B/s written (%.2f B/request)\n", path, rps, written, written/rps)
	for _, name := range names {
		fmt.Printf("  %-26s %6.0f B/s (%4.1f %%)\n", name, perSec(float64(s.hist[name])), 100*float64(s.hist[name])/float64(s.total))
	}
	fmt.Printf("  %-26s %6.0f B/s\n", "counters and framing", perSec(other))
	fmt.Printf("  alternatives: binary %.0f, without iteration_duration %.0f, 2 significant digits %.0f, best lossless estimate (base64) %.0f B/s\n",
		binary, noIter, two, model)
}
