package labdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// MariaDB keeps the lab tables unqualified in the DSN's database (a MySQL "schema" is a
// database, so there is no lab.* namespace). DDL is not transactional there, so a rebuild
// creates every table under a __new name, then swaps all of them in one atomic
// RENAME TABLE and drops the __old ones: readers see the old or the new data set.
var mysqlTables = []string{"meta", "wide_rows", "roles", "permissions", "role_permissions", "counters", "users"}

const (
	mysqlNewSuffix = "__new"
	mysqlOldSuffix = "__old"
	// mysqlBatchRows bounds one INSERT ... SELECT of wide_rows (undo log and statement size).
	mysqlBatchRows = 20000
	// MySQLMaxFields: InnoDB keeps a row's short columns in the page (about 8 KB), so the
	// wide table cannot be as wide on MariaDB as on Postgres.
	MySQLMaxFields = 250
)

func (s Sizes) mysqlMetaRows() map[string]string {
	m := s.metaRows()
	delete(m, "shards") // no shard tables on MariaDB: --shards changes nothing there
	m["database"] = "mariadb"
	return m
}

func quoteIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// SetupMySQL is Setup for a mysql:// or mariadb:// DSN: it creates the database if needed,
// serialises concurrent setups with GET_LOCK, does nothing when meta already holds the same
// sizes, and otherwise builds the data set into new tables swapped in atomically.
func SetupMySQL(ctx context.Context, dsn string, s Sizes) (SetupResult, error) {
	start := time.Now()
	res := SetupResult{Sizes: s}
	if s.Fields > MySQLMaxFields {
		return res, fmt.Errorf("--fields %d: MariaDB's row size limit allows at most %d", s.Fields, MySQLMaxFields)
	}
	cfg, err := MySQLConfig(dsn)
	if err != nil {
		return res, err
	}
	if cfg.DBName == "" {
		return res, errors.New("the MariaDB URL names no database (mysql://user:pw@host:port/<db>)")
	}
	if err := EnsureMySQLDatabase(ctx, cfg); err != nil {
		return res, err
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return res, err
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()

	// A session lock, keyed by database (GET_LOCK names are server-wide, at most 64 chars).
	lock := "poolbench_lab_setup:" + cfg.DBName
	if len(lock) > 64 {
		lock = lock[:64]
	}
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, `SELECT GET_LOCK(?, ?)`, lock, lockWaitSeconds(ctx)).Scan(&got); err != nil {
		return res, err
	}
	if !got.Valid || got.Int64 != 1 {
		return res, fmt.Errorf("another setup of database %q holds the setup lock", cfg.DBName)
	}
	defer func() { _, _ = conn.ExecContext(context.Background(), `SELECT RELEASE_LOCK(?)`, lock) }()

	current, err := readMySQLMeta(ctx, conn)
	if err != nil {
		return res, err
	}
	if maps.Equal(current, s.mysqlMetaRows()) {
		res.Ms = time.Since(start).Milliseconds()
		return res, nil
	}
	if err := dropMySQLTables(ctx, conn, mysqlNewSuffix, mysqlOldSuffix); err != nil {
		return res, err
	}
	for _, stmt := range mysqlBuildStatements(s) {
		if _, err := conn.ExecContext(ctx, stmt); err != nil {
			_ = dropMySQLTables(context.Background(), conn, mysqlNewSuffix)
			return res, fmt.Errorf("setup statement failed: %w\n%.300s", err, stmt)
		}
	}
	if err := swapMySQLTables(ctx, conn); err != nil {
		_ = dropMySQLTables(context.Background(), conn, mysqlNewSuffix)
		return res, err
	}
	if err := dropMySQLTables(ctx, conn, mysqlOldSuffix); err != nil {
		return res, err
	}
	res.Changed = true
	res.Ms = time.Since(start).Milliseconds()
	return res, nil
}

// lockWaitSeconds waits for a concurrent setup as long as the caller's deadline allows.
func lockWaitSeconds(ctx context.Context) int {
	if dl, ok := ctx.Deadline(); ok {
		return max(int(time.Until(dl).Seconds()), 1)
	}
	return 600
}

// EnsureMySQLDatabase creates cfg's database if it does not exist (connecting without one).
func EnsureMySQLDatabase(ctx context.Context, cfg *mysql.Config) error {
	admin := cfg.Clone()
	admin.DBName = ""
	connector, err := mysql.NewConnector(admin)
	if err != nil {
		return err
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	_, err = db.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS "+quoteIdent(cfg.DBName))
	return err
}

func existingMySQLTables(ctx context.Context, conn *sql.Conn) (map[string]bool, error) {
	rows, err := conn.QueryContext(ctx, `SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out[n] = true
	}
	return out, rows.Err()
}

func readMySQLMeta(ctx context.Context, conn *sql.Conn) (map[string]string, error) {
	meta := map[string]string{}
	tables, err := existingMySQLTables(ctx, conn)
	if err != nil || !tables["meta"] {
		return meta, err
	}
	rows, err := conn.QueryContext(ctx, "SELECT `key`, `value` FROM meta")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanMeta(rows, meta)
}

// dropMySQLTables drops the lab tables carrying any of the suffixes (leftovers of a setup
// that died half-way, or the old generation after a swap).
func dropMySQLTables(ctx context.Context, conn *sql.Conn, suffixes ...string) error {
	var names []string
	for _, suf := range suffixes {
		for _, t := range mysqlTables {
			names = append(names, quoteIdent(t+suf))
		}
	}
	_, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+strings.Join(names, ", "))
	return err
}

// swapMySQLTables puts every __new table in place with one RENAME TABLE, which MariaDB
// runs atomically: a reader sees either the old set or the new one.
func swapMySQLTables(ctx context.Context, conn *sql.Conn) error {
	live, err := existingMySQLTables(ctx, conn)
	if err != nil {
		return err
	}
	var pairs []string
	for _, t := range mysqlTables {
		if live[t] {
			pairs = append(pairs, quoteIdent(t)+" TO "+quoteIdent(t+mysqlOldSuffix))
		}
		pairs = append(pairs, quoteIdent(t+mysqlNewSuffix)+" TO "+quoteIdent(t))
	}
	_, err = conn.ExecContext(ctx, "RENAME TABLE "+strings.Join(pairs, ", "))
	return err
}

func mysqlWideRowsDDL(table string, fields int) string {
	return fmt.Sprintf("CREATE TABLE %s (id bigint NOT NULL PRIMARY KEY%s) ENGINE=InnoDB ROW_FORMAT=DYNAMIC",
		quoteIdent(table), wideFieldsDDL(fields, "char(32) CHARACTER SET ascii NOT NULL"))
}

// mysqlWideRowsFill inserts ids [from, to] with the same values as Postgres' generator
// (md5 of "<id>-<field>", (id * field * 7919) mod 1000003), reading ids from MariaDB's
// Sequence engine (seq_<from>_to_<to>), the counterpart of generate_series.
func mysqlWideRowsFill(table string, fields, from, to int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s SELECT seq", quoteIdent(table))
	for i := 1; i <= fields; i++ {
		if fieldIsInt(i) {
			fmt.Fprintf(&b, ", (seq * %d * 7919) %% 1000003", i)
		} else {
			fmt.Fprintf(&b, ", MD5(CONCAT(seq, '-%d'))", i)
		}
	}
	fmt.Fprintf(&b, " FROM seq_%d_to_%d", from, to)
	return b.String()
}

func mysqlBuildStatements(s Sizes) []string {
	n := func(t string) string { return quoteIdent(t + mysqlNewSuffix) }
	st := []string{
		"CREATE TABLE " + n("meta") + " (`key` varchar(64) NOT NULL PRIMARY KEY, `value` varchar(255) NOT NULL) ENGINE=InnoDB",
		mysqlWideRowsDDL("wide_rows"+mysqlNewSuffix, s.Fields),
	}
	for from := 1; from <= s.Rows; from += mysqlBatchRows {
		st = append(st, mysqlWideRowsFill("wide_rows"+mysqlNewSuffix, s.Fields, from, min(from+mysqlBatchRows-1, s.Rows)))
	}
	st = append(st,
		"CREATE TABLE "+n("roles")+" (id int NOT NULL PRIMARY KEY, name varchar(64) NOT NULL UNIQUE, description varchar(255) NOT NULL) ENGINE=InnoDB",
		"CREATE TABLE "+n("permissions")+" (id int NOT NULL PRIMARY KEY, name varchar(64) NOT NULL UNIQUE, resource varchar(32) NOT NULL, action varchar(32) NOT NULL) ENGINE=InnoDB",
		"CREATE TABLE "+n("role_permissions")+" (role_id int NOT NULL, permission_id int NOT NULL, PRIMARY KEY (role_id, permission_id), KEY (permission_id)) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO %s SELECT seq, CONCAT('role-', seq), CONCAT('Role number ', seq) FROM seq_1_to_%d", n("roles"), s.Roles),
		fmt.Sprintf(`INSERT INTO %s SELECT seq, CONCAT('perm-', seq),
			ELT(1 + seq %% 6, 'users','orders','invoices','reports','products','settings'),
			ELT(1 + (seq DIV 6) %% 4, 'read','create','update','delete')
			FROM seq_1_to_%d`, n("permissions"), s.Permissions),
		// Each role gets a deterministic ~quarter of the permissions (at least one), as on Postgres.
		fmt.Sprintf(`INSERT INTO %s SELECT r.id, p.id FROM %s r JOIN %s p
			ON (p.id * 7 + r.id * 13) %% 4 = 0 OR p.id = 1 + (r.id %% %d)`, n("role_permissions"), n("roles"), n("permissions"), s.Permissions),
		"CREATE TABLE "+n("counters")+" (id int NOT NULL PRIMARY KEY, hits bigint NOT NULL DEFAULT 0, touched_at datetime(6) NULL) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO %s (id) SELECT seq FROM seq_1_to_%d", n("counters"), CounterRows),
		// Binary, no-pad collation: usernames and passwords compare exactly, as text does on
		// Postgres (the server's default collation would match "USER0001" or "user0001 ").
		"CREATE TABLE "+n("users")+" (id int NOT NULL PRIMARY KEY, username varchar(64) NOT NULL UNIQUE, password varchar(128) NOT NULL)"+
			" ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin",
		fmt.Sprintf("INSERT INTO %s SELECT seq, CONCAT('user', LPAD(seq, 4, '0')), CONCAT('pw-user', LPAD(seq, 4, '0')) FROM seq_1_to_%d", n("users"), UserRows),
	)
	var vals []string
	for k, v := range s.mysqlMetaRows() {
		vals = append(vals, fmt.Sprintf("('%s', '%s')", k, v))
	}
	st = append(st, "INSERT INTO "+n("meta")+" VALUES "+strings.Join(vals, ", "))
	return st
}
