package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// UsageError is a bad flag or value; the CLI exits 2 on it.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// durationValue accepts Go durations ("250ms", "1s") and bare integers as milliseconds,
// because the worker and humans both write these flags.
type durationValue struct{ d *time.Duration }

func (v durationValue) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

func (v durationValue) Set(s string) error {
	d, err := ParseDuration(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

// ParseDuration parses a Go duration or a bare integer number of milliseconds.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("not a duration (use e.g. 250ms, 2s or a number of ms)")
	}
	return d, nil
}

// NewServeFlagSet registers every serve flag on a fresh FlagSet bound to cfg.
func NewServeFlagSet(cfg *Config, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&cfg.Strategy, "strategy", cfg.Strategy, "pool strategy: "+strings.Join(Strategies, " | "))
	fs.StringVar(&cfg.Listen, "listen", cfg.Listen, "HTTP listen address (port 0 picks a free port)")
	fs.StringVar(&cfg.DatabaseURL, "database-url", cfg.DatabaseURL, "Postgres DSN, or mysql:// / mariadb:// URL for MariaDB (required)")
	fs.StringVar(&cfg.UpstreamURL, "upstream-url", cfg.UpstreamURL, "blob store base URL for POST /upload")
	fs.BoolVar(&cfg.UpstreamInsecure, "upstream-insecure", cfg.UpstreamInsecure, "accept the blob store's self-signed certificate")
	fs.StringVar(&cfg.InstanceID, "instance-id", cfg.InstanceID, "instance number, shown in responses and the default application_name")
	fs.StringVar(&cfg.AppName, "application-name", cfg.AppName, "application_name prefix seen by Postgres (default labtarget-<instance-id>)")

	fs.IntVar(&cfg.MaxConns, "max-conns", cfg.MaxConns, "maximum connections per pool (>= 1)")
	fs.IntVar(&cfg.MinConns, "min-conns", cfg.MinConns, "minimum connections (elastic, adaptive lower bound, pool-per-request)")
	dur(fs, &cfg.AcquireTimeout, "acquire-timeout", "wait this long for a connection, then 503 (0 = request deadline)")
	dur(fs, &cfg.ConnectTimeout, "connect-timeout", "timeout to open one database connection")
	dur(fs, &cfg.IdleTimeout, "idle-timeout", "close connections idle this long (lazy, elastic, adaptive)")
	dur(fs, &cfg.MaxLifetime, "max-lifetime", "close connections older than this (0 = never)")
	dur(fs, &cfg.HealthCheckPeriod, "health-check-period", "how often idle connections are checked (idle timeout, lifetime, min conns)")
	dur(fs, &cfg.StatementTimeout, "statement-timeout", "Postgres statement_timeout / MariaDB max_statement_time (0 = none)")
	dur(fs, &cfg.Keepalive, "keepalive", "prewarm: ping idle connections this often (0 = off)")

	fs.IntVar(&cfg.InitialConns, "initial-conns", cfg.InitialConns, "adaptive: starting size (default max(min-conns,1))")
	fs.IntVar(&cfg.GrowStep, "grow-step", cfg.GrowStep, "adaptive: connections added per grow")
	fs.IntVar(&cfg.ShrinkStep, "shrink-step", cfg.ShrinkStep, "adaptive: connections removed per shrink")
	dur(fs, &cfg.GrowWaitThreshold, "grow-wait-threshold", "adaptive: grow when the average acquire wait over a check interval exceeds this")
	dur(fs, &cfg.ShrinkIdle, "shrink-idle", "adaptive: shrink after the pool has had idle capacity this long")
	dur(fs, &cfg.CheckInterval, "check-interval", "adaptive: how often the size is reconsidered")

	fs.IntVar(&cfg.Shards, "shards", cfg.Shards, "partitioned: number of shards, one pool each")
	fs.IntVar(&cfg.SecondaryMaxConns, "secondary-max-conns", cfg.SecondaryMaxConns, "borrowing: size of the background pool (default max-conns)")
	dur(fs, &cfg.BackgroundInterval, "background-interval", "borrowing: period of the background job on the secondary pool")
	fs.IntVar(&cfg.UpstreamConns, "upstream-conns", cfg.UpstreamConns, "keep-alive connections to the blob store (default max-conns)")

	dur(fs, &cfg.RequestTimeout, "request-timeout", "deadline of every request")
	dur(fs, &cfg.MaxWork, "max-work", "cap for GET /work?ms=")
	fs.IntVar(&cfg.MaxRows, "max-rows", cfg.MaxRows, "cap for GET /query?rows=")
	dur(fs, &cfg.ShutdownTimeout, "shutdown-timeout", "how long in-flight requests may finish after SIGTERM")
	return fs
}

func dur(fs *flag.FlagSet, d *time.Duration, name, usage string) {
	fs.Var(durationValue{d}, name, usage)
}

// EnvName is the env var that sets a flag: --max-conns -> LAB_MAX_CONNS.
func EnvName(flagName string) string {
	return "LAB_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// ParseArgs parses flags, then fills every flag not given on the command line from its
// LAB_* env var (flags win), then resolves derived defaults and validates.
func ParseArgs(fs *flag.FlagSet, cfg *Config, args []string, getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || envErr != nil {
			return
		}
		if v := getenv(EnvName(f.Name)); v != "" {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = usagef("invalid value %q for --%s (from %s): %v", v, f.Name, EnvName(f.Name), err)
			}
		}
	})
	return envErr
}
