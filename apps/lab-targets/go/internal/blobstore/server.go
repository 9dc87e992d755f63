// Package blobstore is the object-store upstream of POST /upload (seed 000 used MinIO):
// PUT /objects/{key} stores or discards the body and answers its ETag and size.
package blobstore

import (
	"crypto/md5" //nolint:gosec // S3-style ETag, not security
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
)

// Store is the blob store's state.
type Store struct {
	keep     bool
	maxBytes int64

	mu      sync.Mutex
	objects map[string][]byte
	bytes   int64

	Puts  atomic.Int64
	Conns atomic.Int64 // connections accepted (set by the server's ConnState hook)
}

// NewStore keeps bodies in memory up to maxBytes when keep is true, else discards them.
func NewStore(keep bool, maxBytes int64) *Store {
	return &Store{keep: keep, maxBytes: maxBytes, objects: map[string][]byte{}}
}

// Handler serves the blob store API.
func (s *Store) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok":true}`)
	})
	mux.HandleFunc("PUT /objects/{key}", s.put)
	mux.HandleFunc("POST /objects/{key}", s.put)
	mux.HandleFunc("GET /objects/{key}", s.get)
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		body := map[string]int64{"objects": int64(len(s.objects)), "bytes": s.bytes, "puts": s.Puts.Load(), "conns": s.Conns.Load()}
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, body)
	})
	return mux
}

func (s *Store) put(w http.ResponseWriter, r *http.Request) {
	h := md5.New() //nolint:gosec
	var kept []byte
	var n int64
	var err error
	if s.keep {
		kept, err = io.ReadAll(io.TeeReader(r.Body, h))
		n = int64(len(kept))
	} else {
		n, err = io.Copy(h, r.Body)
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body_read_failed", "message": err.Error()})
		return
	}
	key := r.PathValue("key")
	etag := hex.EncodeToString(h.Sum(nil))
	s.Puts.Add(1)
	if s.keep {
		s.mu.Lock()
		if s.bytes+n <= s.maxBytes {
			s.bytes += n - int64(len(s.objects[key]))
			s.objects[key] = kept
		}
		s.mu.Unlock()
	}
	w.Header().Set("ETag", `"`+etag+`"`)
	writeJSON(w, http.StatusCreated, map[string]any{"key": key, "etag": etag, "size": n})
}

func (s *Store) get(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b, ok := s.objects[r.PathValue("key")]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(b)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}
