package blobstore

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"time"
)

// Server is a running blob store.
type Server struct {
	Store *Store
	URL   string
	srv   *http.Server
	done  chan error
}

// Start listens on addr (port 0 picks one), over TLS with an in-memory self-signed
// certificate when selfSigned is set, and serves until Close.
func Start(addr string, selfSigned bool, store *Store) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	scheme := "http"
	if selfSigned {
		cert, err := SelfSignedCert()
		if err != nil {
			_ = ln.Close()
			return nil, err
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12})
		scheme = "https"
	}
	s := &Server{Store: store, URL: scheme + "://" + ln.Addr().String(), done: make(chan error, 1)}
	s.srv = &http.Server{
		Handler:           store.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				store.Conns.Add(1)
			}
		},
	}
	go func() {
		err := s.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	return s, nil
}

// Done delivers the serve error (nil after a clean Close).
func (s *Server) Done() <-chan error { return s.done }

// Close stops accepting and waits up to timeout for in-flight uploads.
func (s *Server) Close(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return s.srv.Shutdown(ctx)
}
