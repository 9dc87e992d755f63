package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/labdb"
)

func setup(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	var dsn string
	timeout := 5 * time.Minute
	s := labdb.Sizes{Rows: 10000, Fields: 40, Roles: 20, Permissions: 60, Shards: 4}
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&dsn, "database-url", "", "Postgres or MariaDB (mysql://, mariadb://) URL of the lab database (created if missing)")
	fs.IntVar(&s.Rows, "rows", s.Rows, "rows of the wide table read by GET /query")
	fs.IntVar(&s.Fields, "fields", s.Fields, "fields (columns) of the wide table")
	fs.IntVar(&s.Roles, "roles", s.Roles, "roles for GET /roles")
	fs.IntVar(&s.Permissions, "permissions", s.Permissions, "permissions for GET /roles")
	fs.IntVar(&s.Shards, "shards", s.Shards, "shard schemas for the partitioned strategy")
	fs.Var(durationFlag{&timeout}, "timeout", "give up after this long")
	if err := config.ParseArgs(fs, &config.Config{}, args, getenv); err != nil {
		return parseFailed(stderr, "setup", err)
	}
	checks := []struct {
		name   string
		v, min int
		max    int
	}{
		{"rows", s.Rows, 1, 10_000_000}, {"fields", s.Fields, 1, 1000}, {"roles", s.Roles, 1, 100_000},
		{"permissions", s.Permissions, 1, 100_000}, {"shards", s.Shards, 1, 64},
	}
	for _, c := range checks {
		if c.v < c.min || c.v > c.max {
			fmt.Fprintf(stderr, "lab-target setup: invalid --%s %d: must be in [%d, %d]\n", c.name, c.v, c.min, c.max)
			return 2
		}
	}
	if timeout <= 0 {
		fmt.Fprintln(stderr, "lab-target setup: invalid --timeout: must be > 0")
		return 2
	}
	if dsn == "" {
		fmt.Fprintln(stderr, "lab-target setup: --database-url is required (or LAB_DATABASE_URL)")
		return 2
	}
	mysql := labdb.IsMySQL(dsn)
	if mysql && s.Fields > labdb.MySQLMaxFields {
		fmt.Fprintf(stderr, "lab-target setup: invalid --fields %d: at most %d on MariaDB (InnoDB row size)\n", s.Fields, labdb.MySQLMaxFields)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	run := labdb.Setup
	if mysql {
		run = labdb.SetupMySQL
	}
	res, err := run(ctx, dsn, s)
	if err != nil {
		fmt.Fprintf(stderr, "lab-target setup: %v\n", err)
		return 1
	}
	_ = json.NewEncoder(stdout).Encode(res)
	return 0
}

type durationFlag struct{ d *time.Duration }

func (f durationFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	d, err := config.ParseDuration(s)
	if err != nil {
		return err
	}
	if d < 0 {
		return fmt.Errorf("must not be negative")
	}
	*f.d = d
	return nil
}
