package labdb

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
)

// User lookups of POST /login and GET /me: one query each on the request's connection.
const (
	userByNameSQL      = `SELECT id, password FROM lab.users WHERE username = $1`
	userByIDSQL        = `SELECT username FROM lab.users WHERE id = $1`
	userByNameMySQLSQL = "SELECT id, password FROM users WHERE username = ?"
	userByIDMySQLSQL   = "SELECT username FROM users WHERE id = ?"
)

// UserByName returns the id and stored password of username; found=false when there is none.
func UserByName(ctx context.Context, conn *pgx.Conn, username string) (id int, password string, found bool, err error) {
	err = conn.QueryRow(ctx, userByNameSQL, username).Scan(&id, &password)
	return noRows(id, password, err, pgx.ErrNoRows)
}

// UserByNameMySQL is UserByName on a MariaDB connection.
func UserByNameMySQL(ctx context.Context, conn *sql.Conn, username string) (id int, password string, found bool, err error) {
	err = conn.QueryRowContext(ctx, userByNameMySQLSQL, username).Scan(&id, &password)
	return noRows(id, password, err, sql.ErrNoRows)
}

func noRows(id int, password string, err, none error) (int, string, bool, error) {
	if errors.Is(err, none) {
		return 0, "", false, nil
	}
	return id, password, err == nil, err
}

// UsernameByID returns the username of user id; found=false when there is none.
func UsernameByID(ctx context.Context, conn *pgx.Conn, id int) (username string, found bool, err error) {
	err = conn.QueryRow(ctx, userByIDSQL, id).Scan(&username)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	return username, err == nil, err
}

// UsernameByIDMySQL is UsernameByID on a MariaDB connection.
func UsernameByIDMySQL(ctx context.Context, conn *sql.Conn, id int) (username string, found bool, err error) {
	err = conn.QueryRowContext(ctx, userByIDMySQLSQL, id).Scan(&username)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return username, err == nil, err
}
