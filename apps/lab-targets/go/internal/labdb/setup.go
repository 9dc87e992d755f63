package labdb

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// SetupResult says what Setup did.
type SetupResult struct {
	Changed bool  `json:"changed"`
	Sizes   Sizes `json:"sizes"`
	Ms      int64 `json:"ms"`
}

// setupLockKey serialises concurrent setups of the same database. It is a transaction-level
// lock, held only while setup runs; serving never takes it.
const setupLockKey = 0x6c6162736574 // "labset"

// Setup creates the lab data set in the database of dsn, creating the database itself if
// it does not exist. Same sizes and schema version as last time: nothing is done.
// Different: everything is dropped and rebuilt in one transaction, so concurrent readers
// see the old or the new data set, never a half-built one.
func Setup(ctx context.Context, dsn string, s Sizes) (SetupResult, error) {
	start := time.Now()
	res := SetupResult{Sizes: s}
	if err := EnsureDatabase(ctx, dsn); err != nil {
		return res, err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.Background())

	tx, err := conn.Begin(ctx)
	if err != nil {
		return res, err
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(setupLockKey)); err != nil {
		return res, err
	}
	current, err := readMeta(ctx, tx)
	if err != nil {
		return res, err
	}
	if maps.Equal(current, s.metaRows()) {
		res.Ms = time.Since(start).Milliseconds()
		return res, tx.Commit(ctx)
	}
	if err := dropLabSchemas(ctx, tx); err != nil {
		return res, err
	}
	for _, stmt := range buildStatements(s) {
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return res, fmt.Errorf("setup statement failed: %w\n%s", err, stmt)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return res, err
	}
	res.Changed = true
	res.Ms = time.Since(start).Milliseconds()
	return res, nil
}

func readMeta(ctx context.Context, tx pgx.Tx) (map[string]string, error) {
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT to_regclass('lab.meta') IS NOT NULL`).Scan(&exists); err != nil {
		return nil, err
	}
	meta := map[string]string{}
	if !exists {
		return meta, nil
	}
	rows, err := tx.Query(ctx, `SELECT key, value FROM lab.meta`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanMeta(rows, meta)
}

// scanMeta adds the key and value rows of the meta table to meta.
func scanMeta(rows resultRows, meta map[string]string) (map[string]string, error) {
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		meta[k] = v
	}
	return meta, rows.Err()
}

func dropLabSchemas(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT nspname FROM pg_namespace WHERE nspname = 'lab' OR nspname LIKE 'lab\_shard\_%'`)
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, err := tx.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{n}.Sanitize()+" CASCADE"); err != nil {
			return err
		}
	}
	return nil
}

// EnsureDatabase creates the database named in dsn when it does not exist yet, connecting
// to the "postgres" maintenance database to do so. Two callers racing is fine.
func EnsureDatabase(ctx context.Context, dsn string) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err == nil {
		return conn.Close(ctx)
	}
	if SQLState(err) != InvalidCatalogName {
		return err
	}
	name := cfg.Database
	admin := cfg.Copy()
	admin.Database = "postgres"
	aconn, err := pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return fmt.Errorf("database %q does not exist and the maintenance database is unreachable: %w", name, err)
	}
	defer aconn.Close(context.Background())
	_, err = aconn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	// Created by another caller meanwhile: 42P04 when its CREATE had committed, 23505 on
	// pg_database's name index when both were under way at once.
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "42P04" || pgErr.Code == "23505") {
		return nil
	}
	return err
}
