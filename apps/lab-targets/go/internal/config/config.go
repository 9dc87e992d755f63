// Package config holds the serve configuration: one field per flag of the pool contract
// (/tmp/pb-pool-contract.md, mirrored in README.md), parsed from flags and LAB_* env vars.
package config

import (
	"strings"
	"time"
)

// Strategies lists every accepted --strategy value, in the order the README documents them.
var Strategies = []string{
	"per-request", "pool-per-request", "lazy", "prewarm", "fixed",
	"elastic", "adaptive", "priority", "partitioned", "borrowing",
}

// MySQLStrategies are the strategies available on MariaDB (a mysql:// or mariadb://
// --database-url): the single-pool ones on database/sql, plus opening per request.
var MySQLStrategies = []string{"per-request", "pool-per-request", "lazy", "fixed", "elastic", "prewarm"}

// IsMySQL reports whether a --database-url points at MariaDB/MySQL rather than Postgres.
func IsMySQL(dsn string) bool {
	s := strings.ToLower(strings.TrimSpace(dsn))
	return strings.HasPrefix(s, "mysql://") || strings.HasPrefix(s, "mariadb://")
}

// Config is the complete serve configuration. Durations of zero mean "none" unless noted.
type Config struct {
	Strategy         string
	Listen           string
	DatabaseURL      string
	UpstreamURL      string
	UpstreamInsecure bool
	InstanceID       string
	AppName          string // application_name prefix the database sees: "<AppName>:<pool>"

	MaxConns          int
	MinConns          int
	AcquireTimeout    time.Duration // 0 = wait for the request's own deadline
	ConnectTimeout    time.Duration
	IdleTimeout       time.Duration
	MaxLifetime       time.Duration
	HealthCheckPeriod time.Duration
	StatementTimeout  time.Duration
	Keepalive         time.Duration

	InitialConns      int
	GrowStep          int
	ShrinkStep        int
	GrowWaitThreshold time.Duration
	ShrinkIdle        time.Duration
	CheckInterval     time.Duration

	Shards             int
	SecondaryMaxConns  int
	BackgroundInterval time.Duration
	UpstreamConns      int

	RequestTimeout  time.Duration
	MaxWork         time.Duration
	MaxRows         int
	ShutdownTimeout time.Duration
}

// Defaults returns the configuration used when no flag or env var says otherwise.
// Values of -1 are resolved from other fields by Resolve.
func Defaults() Config {
	return Config{
		Strategy:           "lazy",
		Listen:             "127.0.0.1:8080",
		InstanceID:         "0",
		MaxConns:           10,
		ConnectTimeout:     5 * time.Second,
		IdleTimeout:        30 * time.Minute,
		MaxLifetime:        time.Hour,
		HealthCheckPeriod:  time.Minute,
		Keepalive:          30 * time.Second,
		InitialConns:       -1,
		GrowStep:           10,
		ShrinkStep:         5,
		GrowWaitThreshold:  100 * time.Millisecond,
		ShrinkIdle:         5 * time.Minute,
		CheckInterval:      time.Second,
		Shards:             4,
		SecondaryMaxConns:  -1,
		BackgroundInterval: 500 * time.Millisecond,
		UpstreamConns:      -1,
		RequestTimeout:     60 * time.Second,
		MaxWork:            30 * time.Second,
		MaxRows:            100000,
		ShutdownTimeout:    10 * time.Second,
	}
}

// Resolve fills the values that default to other fields.
func (c *Config) Resolve() {
	if c.SecondaryMaxConns < 0 {
		c.SecondaryMaxConns = c.MaxConns
	}
	if c.UpstreamConns < 0 {
		c.UpstreamConns = c.MaxConns
	}
	if c.InitialConns < 0 {
		c.InitialConns = min(max(c.MinConns, 1), c.MaxConns)
	}
	if c.AppName == "" {
		c.AppName = "labtarget-" + c.InstanceID
	}
}
