// Package linkproxy is a TCP proxy that stands in for a network link between the lab target
// and its database: every byte is delivered --delay after it was sent, in each direction, so a
// round trip costs 2 x delay, while data keeps flowing back to back (a delay line, not a
// bandwidth limit). Seed 001's write-up blamed its 20-100 ms link to MySQL; loopback has no
// such link, so the bench puts this proxy between the target and Postgres to emulate it.
package linkproxy

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// chunkSize is the largest read forwarded as one piece; inFlight chunks may be on their way
// per direction before the reader waits, i.e. up to 64 x 32 KiB = 2 MiB per direction is
// "on the wire" (like a large TCP window): at 25 ms one way that allows ~80 MB/s.
const (
	chunkSize = 32 << 10
	inFlight  = 64
)

// Options configure Start.
type Options struct {
	Addr     string        // listen address; port 0 picks one
	Upstream string        // host:port every accepted connection is forwarded to
	Delay    time.Duration // one-way delay added to each direction
	// DialTimeout bounds connecting to Upstream (default 5 s).
	DialTimeout time.Duration
}

// Proxy is a running link proxy.
type Proxy struct {
	Addr  string // the bound listen address (host:port)
	Conns atomic.Int64

	ln   net.Listener
	o    Options
	wg   sync.WaitGroup
	mu   sync.Mutex
	open map[net.Conn]struct{}
	done chan struct{}
}

// Start listens and forwards until Close.
func Start(o Options) (*Proxy, error) {
	if o.Delay < 0 {
		return nil, errors.New("delay must be >= 0")
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	p := &Proxy{Addr: ln.Addr().String(), ln: ln, o: o, open: map[net.Conn]struct{}{}, done: make(chan struct{})}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			select {
			case <-p.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return
		}
		p.Conns.Add(1)
		p.wg.Add(1)
		go p.handle(c)
	}
}

func (p *Proxy) track(c net.Conn, add bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if add {
		select {
		case <-p.done:
			return false
		default:
		}
		p.open[c] = struct{}{}
	} else {
		delete(p.open, c)
	}
	return true
}

func (p *Proxy) handle(client net.Conn) {
	defer p.wg.Done()
	if !p.track(client, true) {
		_ = client.Close()
		return
	}
	defer p.track(client, false)
	defer client.Close()
	// The upstream connection is opened at once; the link's delay applies to the bytes
	// (the client's first bytes, e.g. Postgres' startup message, arrive after the delay).
	up, err := net.DialTimeout("tcp", p.o.Upstream, p.o.DialTimeout)
	if err != nil {
		return
	}
	if !p.track(up, true) {
		_ = up.Close()
		return
	}
	defer p.track(up, false)
	defer up.Close()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); pipe(up, client, p.o.Delay) }()
	go func() { defer wg.Done(); pipe(client, up, p.o.Delay) }()
	wg.Wait()
}

type chunk struct {
	data []byte
	due  time.Time
}

// pipe copies src to dst, delivering each piece delay after it was read. At EOF it
// half-closes dst once everything before it is delivered; on an error it closes both, so the
// other direction ends too.
func pipe(dst, src net.Conn, delay time.Duration) {
	ch := make(chan chunk, inFlight)
	go func() {
		defer close(ch)
		for {
			buf := make([]byte, chunkSize)
			n, err := src.Read(buf)
			if n > 0 {
				ch <- chunk{data: buf[:n], due: time.Now().Add(delay)}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					_ = dst.Close()
				}
				return
			}
		}
	}()
	for c := range ch {
		if d := time.Until(c.due); d > 0 {
			time.Sleep(d)
		}
		if _, err := dst.Write(c.data); err != nil {
			_ = src.Close()
			for range ch { // let the reader finish
			}
			return
		}
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	} else {
		_ = dst.Close()
	}
}

// Close stops accepting and cuts every open connection.
func (p *Proxy) Close() error {
	p.mu.Lock()
	close(p.done)
	for c := range p.open {
		_ = c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}
