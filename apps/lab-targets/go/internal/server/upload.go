package server

import (
	"context"
	"errors"
	"net/http"
	"time"
)

const maxUploadBytes = 256 << 20

// upload forwards the body to the blob store through the upstream keep-alive pool (seed 000).
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	if s.Upstream == nil {
		writeError(w, http.StatusServiceUnavailable, "no_upstream", "start the target with --upstream-url to enable uploads")
		return
	}
	start := time.Now()
	body := http.MaxBytesReader(w, r.Body, maxUploadBytes)
	res, err := s.Upstream.Upload(r.Context(), body, r.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "body_too_large", "uploads are limited to 256 MiB")
			return
		}
		if r.Context().Err() != nil && errors.Is(r.Context().Err(), context.Canceled) {
			return
		}
		s.errLog.log(s.Log, r.URL.Path, err)
		writeError(w, http.StatusBadGateway, "upstream_error", err.Error())
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"key": res.Key, "etag": res.ETag, "size": res.Size, "reusedConn": res.Reused,
		"upstreamMs": time.Since(start).Milliseconds(),
	})
}
