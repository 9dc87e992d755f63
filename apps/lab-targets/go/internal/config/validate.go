package config

import (
	"net/url"
	"slices"
	"strings"
	"time"
)

// Validate checks a resolved Config; every error names the flag at fault.
func (c *Config) Validate() error {
	if !slices.Contains(Strategies, c.Strategy) {
		return usagef("invalid --strategy %q: must be one of %s", c.Strategy, strings.Join(Strategies, ", "))
	}
	if c.DatabaseURL == "" {
		return usagef("--database-url is required (or LAB_DATABASE_URL)")
	}
	if IsMySQL(c.DatabaseURL) && !slices.Contains(MySQLStrategies, c.Strategy) {
		return usagef("invalid --strategy %s: not supported on MariaDB (supported: %s)", c.Strategy, strings.Join(MySQLStrategies, ", "))
	}
	if c.Listen == "" {
		return usagef("--listen must not be empty")
	}
	// Postgres keeps 63 bytes of application_name; "<name>:secondary" must fit.
	if len(c.AppName) > 48 {
		return usagef("invalid --application-name %q: longer than 48 bytes", c.AppName)
	}
	ints := []struct {
		name string
		v    int
		min  int
	}{
		{"max-conns", c.MaxConns, 1},
		{"min-conns", c.MinConns, 0},
		{"initial-conns", c.InitialConns, 1},
		{"grow-step", c.GrowStep, 1},
		{"shrink-step", c.ShrinkStep, 1},
		{"shards", c.Shards, 1},
		{"secondary-max-conns", c.SecondaryMaxConns, 1},
		{"upstream-conns", c.UpstreamConns, 1},
		{"max-rows", c.MaxRows, 1},
	}
	for _, f := range ints {
		if f.v < f.min {
			return usagef("invalid --%s %d: must be >= %d", f.name, f.v, f.min)
		}
	}
	if c.Shards > 64 {
		return usagef("invalid --shards %d: must be <= 64", c.Shards)
	}
	if c.MinConns > c.MaxConns {
		return usagef("invalid --min-conns %d: greater than --max-conns %d", c.MinConns, c.MaxConns)
	}
	if c.Strategy == "adaptive" && (c.InitialConns > c.MaxConns || c.InitialConns < c.MinConns) {
		return usagef("invalid --initial-conns %d: must be within --min-conns %d and --max-conns %d", c.InitialConns, c.MinConns, c.MaxConns)
	}
	durs := []struct {
		name string
		v    time.Duration
	}{
		{"acquire-timeout", c.AcquireTimeout}, {"connect-timeout", c.ConnectTimeout},
		{"idle-timeout", c.IdleTimeout}, {"max-lifetime", c.MaxLifetime},
		{"health-check-period", c.HealthCheckPeriod}, {"statement-timeout", c.StatementTimeout},
		{"keepalive", c.Keepalive}, {"grow-wait-threshold", c.GrowWaitThreshold},
		{"shrink-idle", c.ShrinkIdle}, {"check-interval", c.CheckInterval},
		{"background-interval", c.BackgroundInterval}, {"request-timeout", c.RequestTimeout},
		{"max-work", c.MaxWork}, {"shutdown-timeout", c.ShutdownTimeout},
	}
	for _, d := range durs {
		if d.v < 0 {
			return usagef("invalid --%s %s: must not be negative", d.name, d.v)
		}
	}
	positive := map[string]time.Duration{
		"check-interval": c.CheckInterval, "health-check-period": c.HealthCheckPeriod,
		"request-timeout": c.RequestTimeout, "background-interval": c.BackgroundInterval,
	}
	for name, v := range positive {
		if v == 0 {
			return usagef("invalid --%s 0: must be > 0", name)
		}
	}
	if c.UpstreamURL != "" {
		u, err := url.Parse(c.UpstreamURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("invalid --upstream-url %q: must be http(s)://host:port", c.UpstreamURL)
		}
	}
	return nil
}
