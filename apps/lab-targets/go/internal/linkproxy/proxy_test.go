package linkproxy

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"testing"
	"time"
)

// echoServer answers every connection by writing back what it reads, then half-closes.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
				_ = c.(*net.TCPConn).CloseWrite()
			}()
		}
	}()
	return ln.Addr().String()
}

func startProxy(t *testing.T, upstream string, delay time.Duration) *Proxy {
	t.Helper()
	p, err := Start(Options{Addr: "127.0.0.1:0", Upstream: upstream, Delay: delay})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func TestRoundTripCostsTwiceTheDelay(t *testing.T) {
	const delay = 40 * time.Millisecond
	p := startProxy(t, echoServer(t), delay)
	c, err := net.Dial("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	buf := make([]byte, 4)
	for i := range 3 {
		start := time.Now()
		if _, err := c.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			t.Fatal(err)
		}
		rtt := time.Since(start)
		if string(buf) != "ping" {
			t.Fatalf("echo %q", buf)
		}
		// At least the two one-way delays; the upper bound only guards against a delay
		// applied more than once per direction (a loaded machine adds some slack).
		if rtt < 2*delay || rtt > 2*delay+150*time.Millisecond {
			t.Fatalf("round trip %d took %v, want about %v", i, rtt, 2*delay)
		}
	}
	if p.Conns.Load() != 1 {
		t.Fatalf("conns = %d, want 1", p.Conns.Load())
	}
}

// A large transfer pays the delay once, not once per chunk: the link adds latency, not a
// bandwidth limit. 16 MiB is 512 chunks of 32 KiB; paid per chunk it would take > 20 s.
func TestBulkDataFlowsBackToBackAndIntact(t *testing.T) {
	const delay = 40 * time.Millisecond
	p := startProxy(t, echoServer(t), delay)
	c, err := net.Dial("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	payload := make([]byte, 16<<20)
	_, _ = rand.Read(payload)
	start := time.Now()
	go func() {
		_, _ = c.Write(payload)
		_ = c.(*net.TCPConn).CloseWrite() // the echo server half-closes back at EOF
	}()
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if !bytes.Equal(got, payload) {
		t.Fatalf("got %d bytes back, want the %d sent, unchanged", len(got), len(payload))
	}
	if took < 2*delay || took > 5*time.Second {
		t.Fatalf("16 MiB round trip took %v, want >= %v and well under 5 s", took, 2*delay)
	}
}

func TestUpstreamDownClosesTheClient(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	_ = ln.Close()
	p := startProxy(t, dead, time.Millisecond)
	c, err := net.Dial("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err == nil || n != 0 {
		t.Fatalf("read %d bytes, err %v; want the connection closed", n, err)
	}
}

func TestCloseCutsOpenConnections(t *testing.T) {
	p, err := Start(Options{Addr: "127.0.0.1:0", Upstream: echoServer(t), Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(c, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Close() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return with a connection open")
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Fatal("connection still open after Close")
	}
}

func TestNegativeDelayIsRefused(t *testing.T) {
	if _, err := Start(Options{Addr: "127.0.0.1:0", Upstream: "127.0.0.1:1", Delay: -time.Millisecond}); err == nil {
		t.Fatal("want an error for a negative delay")
	}
}
