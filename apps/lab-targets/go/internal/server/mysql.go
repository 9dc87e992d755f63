package server

import (
	"context"
	"database/sql"
	"net/http"

	"poolbench.dev/lab-target/internal/labdb"
)

// runWorkMySQL is runWork on MariaDB: SELECT SLEEP, and for writes a counter UPDATE in the
// same transaction.
func runWorkMySQL(ctx context.Context, conn *sql.Conn, ms int, write bool) error {
	secs := float64(ms) / 1000
	if !write {
		_, err := conn.ExecContext(ctx, labdb.WorkReadMySQL, secs)
		return err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, labdb.WorkWriteMySQL, randomCounter()); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, labdb.WorkReadMySQL, secs); err != nil {
		return err
	}
	return tx.Commit()
}

// queryMySQL is query on MariaDB: the same JSON (bigint fields as numbers, the md5 fields as
// strings), streamed row by row while the driver reads the result set off the socket, the
// connection held to the last row.
func (s *Server) queryMySQL(w http.ResponseWriter, r *http.Request, conn *sql.Conn, rows, fields int) {
	res, err := conn.QueryContext(r.Context(), labdb.WideRowsSQLMySQL(fields), rows)
	if err != nil {
		s.queryFailed(w, r, err)
		return
	}
	defer res.Close()
	// Column types come with the result set header (read before the first row).
	types, err := res.ColumnTypes()
	if err != nil {
		s.queryFailed(w, r, err)
		return
	}
	names := make([]string, len(types))
	isInt := make([]bool, len(types))
	ints := make([]int64, len(types))
	raws := make([]sql.RawBytes, len(types))
	dest := make([]any, len(types))
	for i, ct := range types {
		names[i] = ct.Name()
		switch ct.DatabaseTypeName() {
		case "BIGINT", "INT", "MEDIUMINT", "SMALLINT", "TINYINT":
			isInt[i], dest[i] = true, &ints[i]
		default:
			dest[i] = &raws[i]
		}
	}
	// Look at the first row before committing to 200, as on Postgres.
	more := res.Next()
	if !more && res.Err() != nil {
		s.queryFailed(w, r, res.Err())
		return
	}
	s.writeRows(w, r, names, more, res.Next, func(row map[string]any) error {
		if err := res.Scan(dest...); err != nil {
			return err
		}
		for i, n := range names {
			if isInt[i] {
				row[n] = ints[i]
			} else {
				row[n] = string(raws[i])
			}
		}
		return nil
	}, res.Err)
}
