package poolbench

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"math"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// V2 format cookies, as in hdrhistogram-go and HdrHistogram (Java).
const (
	v2EncodingCookie           = hdr.V2EncodingCookieBase | 0x10
	v2CompressedEncodingCookie = hdr.V2CompressedEncodingCookieBase | 0x10
	v2HeaderSize               = 40
)

// encoder writes the same bytes as hdrhistogram-go's Encode(V2Compressed), but
// reuses its zlib writer and buffers: the library allocates ~850 KB and a few
// thousand objects per histogram, six times a second.
type encoder struct {
	raw []byte
	z   bytes.Buffer
	zw  *zlib.Writer
	out []byte
}

func newEncoder() *encoder {
	e := &encoder{}
	e.zw, _ = zlib.NewWriterLevel(&e.z, zlib.BestCompression) // the level is a valid constant
	return e
}

func (e *encoder) encode(h *hdr.Histogram) (string, error) {
	counts := h.Export().Counts
	n := len(counts)
	for n > 0 && counts[n-1] == 0 {
		n--
	}
	if n == 0 {
		n = 1 // an empty histogram still encodes its first count, as the library does
	}
	raw := append(e.raw[:0], make([]byte, v2HeaderSize)...)
	for i := 0; i < n; {
		c := counts[i]
		i++
		if c == 0 {
			zeros := int64(1)
			for i < n && counts[i] == 0 {
				zeros++
				i++
			}
			if zeros > 1 {
				c = -zeros // V2: a negative value is a run of zero counts
			}
		}
		raw = binary.AppendUvarint(raw, uint64((c<<1)^(c>>63)))
	}
	binary.BigEndian.PutUint32(raw[0:], uint32(v2EncodingCookie))
	binary.BigEndian.PutUint32(raw[4:], uint32(len(raw)-v2HeaderSize))
	binary.BigEndian.PutUint32(raw[8:], 1) // normalizing index offset, as hdrhistogram-go writes it
	binary.BigEndian.PutUint32(raw[12:], uint32(h.SignificantFigures()))
	binary.BigEndian.PutUint64(raw[16:], uint64(h.LowestTrackableValue()))
	binary.BigEndian.PutUint64(raw[24:], uint64(h.HighestTrackableValue()))
	binary.BigEndian.PutUint64(raw[32:], math.Float64bits(1))
	e.raw = raw

	e.z.Reset()
	e.zw.Reset(&e.z)
	if _, err := e.zw.Write(raw); err != nil {
		return "", err
	}
	if err := e.zw.Close(); err != nil {
		return "", err
	}
	out := binary.BigEndian.AppendUint32(e.out[:0], uint32(v2CompressedEncodingCookie))
	out = binary.BigEndian.AppendUint32(out, uint32(e.z.Len()))
	out = append(out, e.z.Bytes()...)
	e.out = out
	return base64.StdEncoding.EncodeToString(out), nil
}
