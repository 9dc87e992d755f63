// Package upstream is the HTTP client pool towards the blob store (seed 000's MinIO).
// Its keep-alive pool holds --upstream-conns connections; prewarm opens them all (TCP and
// TLS) before the instance reports ready, every other strategy opens them on demand.
package upstream

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"sync"
	"time"

	"poolbench.dev/lab-target/internal/metrics"
)

// Client uploads objects to the blob store.
type Client struct {
	base  *url.URL
	http  *http.Client
	tr    *http.Transport
	m     *metrics.Metrics
	conns int
}

// Options configure New.
type Options struct {
	URL            string
	Insecure       bool
	Conns          int
	ConnectTimeout time.Duration
	IdleTimeout    time.Duration // 0 = keep idle connections forever
}

// New builds the client; it opens nothing.
func New(o Options, m *metrics.Metrics) (*Client, error) {
	base, err := url.Parse(o.URL)
	if err != nil {
		return nil, err
	}
	c := &Client{base: base, m: m, conns: o.Conns}
	dialer := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	tlsConf := &tls.Config{InsecureSkipVerify: o.Insecure, NextProtos: []string{"http/1.1"}} //nolint:gosec // lab blob store, opt-in flag
	c.tr = &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			m.UpstreamCreated.Inc()
			return counted(conn, m), nil
		},
		// Our own TLS dial so every handshake is timed, including those of the warm-up.
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			raw, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			m.UpstreamCreated.Inc()
			conf := tlsConf.Clone()
			if host, _, err := net.SplitHostPort(addr); err == nil {
				conf.ServerName = host
			}
			start := time.Now()
			tc := tls.Client(raw, conf)
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = raw.Close()
				return nil, err
			}
			m.UpstreamTLS.Observe(time.Since(start).Seconds())
			return counted(tc, m), nil
		},
		// HTTP/1.1 only: one request per connection, so the pool size means what it says.
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{},
		MaxIdleConns:        o.Conns,
		MaxIdleConnsPerHost: o.Conns,
		IdleConnTimeout:     o.IdleTimeout,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	c.http = &http.Client{Transport: c.tr}
	m.UpstreamMax.Set(float64(o.Conns))
	return c, nil
}

// Result is the blob store's answer to an upload.
type Result struct {
	Key    string `json:"key"`
	ETag   string `json:"etag"`
	Size   int64  `json:"size"`
	Reused bool   `json:"reusedConn"`
}

// Upload streams body to PUT <base>/objects/<random key>.
func (c *Client) Upload(ctx context.Context, body io.Reader, size int64) (Result, error) {
	var res Result
	key := randomKey()
	var reused bool
	var asked time.Time
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn: func(string) { asked = time.Now() },
		GotConn: func(i httptrace.GotConnInfo) {
			reused = i.Reused
			if !asked.IsZero() {
				c.m.UpstreamConnWait.Observe(time.Since(asked).Seconds())
			}
		},
	})
	c.m.UpstreamInUse.Inc()
	defer c.m.UpstreamInUse.Dec()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base.JoinPath("objects", key).String(), body)
	if err != nil {
		return res, err
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := c.http.Do(req)
	if err != nil {
		return res, err
	}
	defer resp.Body.Close()
	c.m.UpstreamRequests.WithLabelValues(strconv.FormatBool(reused)).Inc()
	if resp.StatusCode/100 != 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		return res, fmt.Errorf("blob store answered %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return res, fmt.Errorf("blob store answer unreadable: %w", err)
	}
	res.Reused = reused
	return res, nil
}

// Warm opens the whole keep-alive pool: it sends --upstream-conns requests at once and
// holds every response open until all have arrived, so each needs its own connection
// (TCP and TLS handshake included); closing them then leaves them idle in the pool.
func (c *Client) Warm(ctx context.Context) error {
	var wg sync.WaitGroup
	arrived := make(chan struct{})
	var mu sync.Mutex
	var firstErr error
	pending := c.conns
	for range c.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := c.get(ctx, "healthz")
			mu.Lock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			pending--
			if pending == 0 {
				close(arrived)
			}
			mu.Unlock()
			if err != nil {
				return
			}
			select {
			case <-arrived:
			case <-ctx.Done():
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}()
	}
	wg.Wait()
	return firstErr
}

func (c *Client) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base.JoinPath(path).String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		_ = resp.Body.Close()
		return nil, fmt.Errorf("blob store %s answered %s", path, resp.Status)
	}
	return resp, nil
}

// Close drops the idle connections.
func (c *Client) Close() { c.tr.CloseIdleConnections() }

func randomKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// countedConn keeps labtarget_upstream_open_conns true: +1 when dialled, -1 on the first Close.
type countedConn struct {
	net.Conn
	m    *metrics.Metrics
	once sync.Once
}

func counted(c net.Conn, m *metrics.Metrics) net.Conn {
	m.UpstreamOpen.Inc()
	return &countedConn{Conn: c, m: m}
}

func (c *countedConn) Close() error {
	c.once.Do(c.m.UpstreamOpen.Dec)
	return c.Conn.Close()
}
