// Package labtest holds the lab target's integration tests: in-process instances and the
// re-executed binary against the real Postgres, checked through pg_stat_activity.
package labtest
