package poolbench

import (
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func TestEncoderMatchesLibraryBytes(t *testing.T) {
	e := newEncoder()
	cases := map[string][]int64{
		"empty":      nil,
		"zeros only": {0, 0, 0},
		"one value":  {1234},
		"spread":     nil,
		"huge":       {1, histMaxMicros, histMaxMicros},
	}
	for i := 0; i < 20_000; i++ {
		cases["spread"] = append(cases["spread"], int64(i%3)*int64(i*7919%900_000))
	}
	for name, values := range cases {
		h := newHistogram()
		for _, v := range values {
			if err := h.RecordValue(v); err != nil {
				t.Fatal(err)
			}
		}
		want, err := h.Encode(hdr.V2CompressedEncodingCookieBase)
		if err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 2; round++ { // the second round reuses the buffers
			got, err := e.encode(h)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Fatalf("%s: encoding differs from hdrhistogram-go:\n got %s\nwant %s", name, got, want)
			}
		}
	}
}

func BenchmarkEncoder(b *testing.B) {
	h := newHistogram()
	for i := 0; i < 10_000; i++ {
		_ = h.RecordValue(int64(50 + (i*7919)%5000))
	}
	e := newEncoder()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := e.encode(h); err != nil {
			b.Fatal(err)
		}
	}
}
