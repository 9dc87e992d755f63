// Command testserver is a trivial loopback HTTP server for PoolBench's k6
// tests and overhead benchmark: fast enough that k6, not the server, is
// the bottleneck. It prints its base URL on the first stdout line.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback only)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// served counts requests so a benchmark can measure the rate of a k6 run
	// that has no output of its own.
	var served atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		served.Add(1)
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/__served", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = fmt.Fprintln(w, served.Load())
	})
	// /status/503 answers with that status, for failed-request accounting.
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, err := strconv.Atoi(r.PathValue("code"))
		if err != nil || code < 200 || code > 599 {
			code = http.StatusBadRequest
		}
		w.WriteHeader(code)
	})
	// /sleep?ms=N answers after N ms, for tests that need a known latency.
	mux.HandleFunc("/sleep", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		time.Sleep(time.Duration(ms) * time.Millisecond)
		_, _ = w.Write([]byte("ok\n"))
	})
	fmt.Printf("http://%s\n", ln.Addr())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
