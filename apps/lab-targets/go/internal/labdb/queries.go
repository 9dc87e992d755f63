package labdb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Permission and Role are what GET /roles returns (seed 002's roles/permissions service).
type Permission struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Resource string `json:"resource"`
	Action   string `json:"action"`
}

type Role struct {
	ID          int          `json:"id"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Permissions []Permission `json:"permissions"`
}

// rolesQuery reads every role with its permissions through the many-to-many join; schema is
// "lab." on Postgres and "" on MariaDB, whose tables sit in the DSN's database.
func rolesQuery(schema string) string {
	return fmt.Sprintf(`
SELECT r.id, r.name, r.description, p.id, p.name, p.resource, p.action
FROM %[1]sroles r
LEFT JOIN %[1]srole_permissions rp ON rp.role_id = r.id
LEFT JOIN %[1]spermissions p ON p.id = rp.permission_id
ORDER BY r.id, p.id`, schema)
}

var rolesSQL, rolesMySQL = rolesQuery("lab."), rolesQuery("")

// resultRows is what both drivers' result sets offer (pgx.Rows and *sql.Rows).
type resultRows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// scanRoles folds the join's rows, one a role and permission, into roles with their permissions.
func scanRoles(rows resultRows) ([]Role, error) {
	out := []Role{}
	for rows.Next() {
		var r Role
		var pid sql.NullInt64
		var pname, pres, pact sql.NullString
		if err := rows.Scan(&r.ID, &r.Name, &r.Description, &pid, &pname, &pres, &pact); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].ID != r.ID {
			r.Permissions = []Permission{}
			out = append(out, r)
		}
		if pid.Valid {
			last := &out[len(out)-1]
			last.Permissions = append(last.Permissions, Permission{ID: int(pid.Int64), Name: pname.String, Resource: pres.String, Action: pact.String})
		}
	}
	return out, rows.Err()
}

// Roles loads every role with its permissions.
func Roles(ctx context.Context, conn *pgx.Conn) ([]Role, error) {
	rows, err := conn.Query(ctx, rolesSQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanRoles(rows)
}

// wideColumns is id and the first fields generated columns.
func wideColumns(fields int) string {
	cols := make([]string, 0, fields+1)
	cols = append(cols, "id")
	for i := 1; i <= fields; i++ {
		cols = append(cols, FieldName(i))
	}
	return strings.Join(cols, ", ")
}

// WideRowsSQL selects the first fields columns of up to $1 rows of table.
func WideRowsSQL(table string, fields int) string {
	return fmt.Sprintf("SELECT %s FROM %s ORDER BY id LIMIT $1", wideColumns(fields), table)
}

// WideRowsTable is the table GET /query reads: the shard's slice when shard >= 0.
func WideRowsTable(shard int) string {
	if shard < 0 {
		return "lab.wide_rows"
	}
	return ShardSchema(shard) + ".wide_rows"
}

// WorkRead holds the connection for the given seconds, like a slow read query.
const WorkRead = `SELECT pg_sleep($1)`

// WorkWriteSQL touches one counter row; run in the same transaction as WorkRead.
const WorkWriteSQL = `UPDATE lab.counters SET hits = hits + 1, touched_at = now() WHERE id = $1`

// MariaDB counterparts: the tables are unqualified in the DSN's database, placeholders are
// `?` (interpolated by the driver, one round trip per query).

// RolesMySQL is Roles on a MariaDB connection.
func RolesMySQL(ctx context.Context, conn *sql.Conn) ([]Role, error) {
	rows, err := conn.QueryContext(ctx, rolesMySQL)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanRoles(rows)
}

// WideRowsSQLMySQL selects the first fields columns of up to ? rows of wide_rows.
func WideRowsSQLMySQL(fields int) string {
	return fmt.Sprintf("SELECT %s FROM wide_rows ORDER BY id LIMIT ?", wideColumns(fields))
}

// WorkReadMySQL holds the connection for the given seconds (SLEEP takes fractions).
const WorkReadMySQL = `SELECT SLEEP(?)`

// WorkWriteMySQL touches one counter row; run in the same transaction as WorkReadMySQL.
const WorkWriteMySQL = `UPDATE counters SET hits = hits + 1, touched_at = NOW(6) WHERE id = ?`
