package blobstore

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server is a running blob store.
type Server struct {
	Store *Store
	URL   string
	srv   *http.Server
	done  chan error
}

// Options configure Start.
type Options struct {
	Addr       string // port 0 picks one
	SelfSigned bool   // HTTPS with an in-memory self-signed certificate
	// HandshakeDelay is added once to every new connection before its (TLS) handshake,
	// standing in for the network round trips that loopback does not have.
	HandshakeDelay time.Duration
}

// Start listens and serves until Close.
func Start(o Options, store *Store) (*Server, error) {
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	if o.HandshakeDelay > 0 {
		ln = delayListener{Listener: ln, delay: o.HandshakeDelay}
	}
	selfSigned := o.SelfSigned
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

type delayListener struct {
	net.Listener
	delay time.Duration
}

func (l delayListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &delayConn{Conn: c, delay: l.delay}, nil
}

// delayConn sleeps before its first read, i.e. before the server sees the ClientHello
// (or the first request), in the connection's own goroutine so accepting is not delayed.
type delayConn struct {
	net.Conn
	delay time.Duration
	once  sync.Once
}

func (c *delayConn) Read(b []byte) (int, error) {
	c.once.Do(func() { time.Sleep(c.delay) })
	return c.Conn.Read(b)
}
