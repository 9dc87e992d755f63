package labdb

import (
	"fmt"
	"strings"
)

// SchemaVersion changes whenever the layout below changes, so setup rebuilds old data
// (2: the users table of POST /login and GET /me).
const SchemaVersion = "2"

// Sizes are the setup parameters; equal sizes mean setup has nothing to do.
type Sizes struct {
	Rows        int `json:"rows"`
	Fields      int `json:"fields"`
	Roles       int `json:"roles"`
	Permissions int `json:"permissions"`
	Shards      int `json:"shards"`
}

// CounterRows is the number of rows POST /work and the borrowing background job touch.
const CounterRows = 1000

// UserRows is the number of lab users: id n is username user%04d with password pw-user%04d
// (user0001 / pw-user0001 ... user1000 / pw-user1000), for POST /login and GET /me.
const UserRows = 1000

func (s Sizes) metaRows() map[string]string {
	return map[string]string{
		"schema_version": SchemaVersion,
		"rows":           fmt.Sprint(s.Rows),
		"fields":         fmt.Sprint(s.Fields),
		"roles":          fmt.Sprint(s.Roles),
		"permissions":    fmt.Sprint(s.Permissions),
		"shards":         fmt.Sprint(s.Shards),
	}
}

// FieldName is the column name of field i (1-based).
func FieldName(i int) string { return fmt.Sprintf("f%d", i) }

// fieldIsInt: every fourth field is a bigint, the rest text, so rows are not all strings.
func fieldIsInt(i int) bool { return i%4 == 0 }

// ShardSchema names the schema holding shard n's slice of wide_rows.
func ShardSchema(n int) string { return fmt.Sprintf("lab_shard_%d", n) }

func wideRowsDDL(table string, fields int) string {
	return fmt.Sprintf("CREATE TABLE %s (id bigint PRIMARY KEY%s)", table, wideFieldsDDL(fields, "text NOT NULL"))
}

// wideFieldsDDL declares the fields generated columns after id: the integer ones as bigint, the
// others (md5 text) as textType.
func wideFieldsDDL(fields int, textType string) string {
	var b strings.Builder
	for i := 1; i <= fields; i++ {
		typ := textType
		if fieldIsInt(i) {
			typ = "bigint NOT NULL"
		}
		fmt.Fprintf(&b, ", %s %s", FieldName(i), typ)
	}
	return b.String()
}

// wideRowsFill generates the rows in one INSERT ... SELECT over generate_series.
func wideRowsFill(table string, fields, rows int, where string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s SELECT g", table)
	for i := 1; i <= fields; i++ {
		if fieldIsInt(i) {
			fmt.Fprintf(&b, ", (g::bigint * %d * 7919) %% 1000003", i)
		} else {
			fmt.Fprintf(&b, ", md5(g::text || '-%d')", i)
		}
	}
	fmt.Fprintf(&b, " FROM generate_series(1, %d) AS g", rows)
	if where != "" {
		b.WriteString(" WHERE " + where)
	}
	return b.String()
}

// buildStatements returns the DDL and data statements for a fresh lab data set.
func buildStatements(s Sizes) []string {
	st := []string{
		`CREATE SCHEMA lab`,
		`CREATE TABLE lab.meta (key text PRIMARY KEY, value text NOT NULL)`,
		wideRowsDDL("lab.wide_rows", s.Fields),
		wideRowsFill("lab.wide_rows", s.Fields, s.Rows, ""),
		`CREATE TABLE lab.roles (id int PRIMARY KEY, name text NOT NULL UNIQUE, description text NOT NULL)`,
		`CREATE TABLE lab.permissions (id int PRIMARY KEY, name text NOT NULL UNIQUE, resource text NOT NULL, action text NOT NULL)`,
		`CREATE TABLE lab.role_permissions (
			role_id int NOT NULL REFERENCES lab.roles(id),
			permission_id int NOT NULL REFERENCES lab.permissions(id),
			PRIMARY KEY (role_id, permission_id))`,
		fmt.Sprintf(`INSERT INTO lab.roles SELECT g, 'role-' || g, 'Role number ' || g FROM generate_series(1, %d) g`, s.Roles),
		fmt.Sprintf(`INSERT INTO lab.permissions
			SELECT g, 'perm-' || g,
				(ARRAY['users','orders','invoices','reports','products','settings'])[1 + g %% 6],
				(ARRAY['read','create','update','delete'])[1 + (g / 6) %% 4]
			FROM generate_series(1, %d) g`, s.Permissions),
		// Each role gets a deterministic ~quarter of the permissions (at least one).
		`INSERT INTO lab.role_permissions
			SELECT r.id, p.id FROM lab.roles r JOIN lab.permissions p
			ON (p.id * 7 + r.id * 13) % 4 = 0 OR p.id = 1 + (r.id % (SELECT count(*) FROM lab.permissions))`,
		`CREATE INDEX ON lab.role_permissions (permission_id)`,
		`CREATE TABLE lab.counters (id int PRIMARY KEY, hits bigint NOT NULL DEFAULT 0, touched_at timestamptz)`,
		fmt.Sprintf(`INSERT INTO lab.counters (id) SELECT g FROM generate_series(1, %d) g`, CounterRows),
		`CREATE TABLE lab.users (id int PRIMARY KEY, username text NOT NULL UNIQUE, password text NOT NULL)`,
		fmt.Sprintf(`INSERT INTO lab.users
			SELECT g, 'user' || lpad(g::text, 4, '0'), 'pw-user' || lpad(g::text, 4, '0')
			FROM generate_series(1, %d) g`, UserRows),
	}
	for n := range s.Shards {
		table := ShardSchema(n) + ".wide_rows"
		st = append(st,
			"CREATE SCHEMA "+ShardSchema(n),
			wideRowsDDL(table, s.Fields),
			wideRowsFill(table, s.Fields, s.Rows, fmt.Sprintf("g %% %d = %d", s.Shards, n)),
		)
	}
	for k, v := range s.metaRows() {
		st = append(st, fmt.Sprintf("INSERT INTO lab.meta VALUES ('%s', '%s')", k, v))
	}
	st = append(st, `ANALYZE lab.wide_rows`, `ANALYZE lab.roles`, `ANALYZE lab.permissions`, `ANALYZE lab.role_permissions`, `ANALYZE lab.users`)
	return st
}
