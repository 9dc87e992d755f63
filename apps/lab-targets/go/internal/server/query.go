package server

import (
	"bufio"
	"encoding/json"
	"net/http"

	"poolbench.dev/lab-target/internal/labdb"
)

const maxFields = 1000

// query streams ?rows= rows x ?fields= fields from the generated table as a JSON array,
// row by row through json.Encoder (seed 001's Go variant), so memory stays flat however
// large the answer. The connection is held until the last row is written, as in the seed.
func (s *Server) query(w http.ResponseWriter, r *http.Request) {
	rows, ok := intParam(r, "rows", 100, 0, s.Cfg.MaxRows)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad_rows", "rows must be an integer in [0, --max-rows]")
		return
	}
	fields, ok := intParam(r, "fields", 10, 0, maxFields)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad_fields", "fields must be an integer in [0, 1000]")
		return
	}
	l := s.lease(w, r)
	if l == nil {
		return
	}
	defer l.Release()
	if l.SQL != nil {
		s.queryMySQL(w, r, l.SQL, rows, fields)
		return
	}
	ctx := r.Context()
	res, err := l.Conn.Query(ctx, labdb.WideRowsSQL(labdb.WideRowsTable(l.Shard), fields), rows)
	if err != nil {
		s.queryFailed(w, r, err)
		return
	}
	defer res.Close()
	// Look at the first row before committing to 200, so a bad ?fields= or a missing
	// table still gets a proper error answer.
	more := res.Next()
	if !more && res.Err() != nil {
		s.queryFailed(w, r, res.Err())
		return
	}
	names := make([]string, 0, fields+1)
	for _, fd := range res.FieldDescriptions() {
		names = append(names, fd.Name)
	}
	s.writeRows(w, r, names, more, res.Next, func(row map[string]any) error {
		vals, err := res.Values()
		if err != nil {
			return err
		}
		for i, n := range names {
			row[n] = vals[i]
		}
		return nil
	}, res.Err)
}

// writeRows answers 200 with a result set as a JSON array, encoding one row at a time through
// json.Encoder, so memory stays flat however large the answer. more says whether a first row was
// read; next reads the following one; fill puts the current row's values into row; final is the
// result set's error once the rows end. Once the headers are out, a truncated body is the only
// signal left for a failure: it is counted and logged.
func (s *Server) writeRows(
	w http.ResponseWriter,
	r *http.Request,
	names []string,
	more bool,
	next func() bool,
	fill func(row map[string]any) error,
	final func() error,
) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	enc := json.NewEncoder(bw)
	row := make(map[string]any, len(names))
	failed := func(err error) {
		labdb.Record(s.Metrics, err)
		s.errLog.log(s.Log, r.URL.Path, err)
	}
	_ = bw.WriteByte('[')
	for first := true; more; more = next() {
		if err := fill(row); err != nil {
			failed(err)
			return
		}
		if !first {
			_ = bw.WriteByte(',')
		}
		first = false
		if err := enc.Encode(row); err != nil {
			return // client gone
		}
	}
	if err := final(); err != nil {
		failed(err)
		return
	}
	_ = bw.WriteByte(']')
	_ = bw.Flush()
}

func (s *Server) queryFailed(w http.ResponseWriter, r *http.Request, err error) {
	if labdb.IsUndefinedColumn(labdb.SQLState(err)) {
		writeError(w, http.StatusBadRequest, "too_many_fields", "fields exceeds the lab table's fields (see lab-target setup --fields)")
		return
	}
	s.fail(w, r, err)
}
