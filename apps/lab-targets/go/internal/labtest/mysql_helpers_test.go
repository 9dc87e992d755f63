package labtest

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"poolbench.dev/lab-target/internal/app"
	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/labdb"
)

// The MariaDB tests run against the real MariaDB (LAB_TEST_MYSQL_URL, default the local
// services' instance). MariaDB has no application_name, so every instance connects as a
// MariaDB user of its own and the tests count that user's rows in PROCESSLIST.
// LAB_TEST_MYSQL_URL=skip skips them (a machine without MariaDB).
func myTestDSN() string {
	if v := os.Getenv("LAB_TEST_MYSQL_URL"); v != "" {
		return v
	}
	return "mysql://poolbench:poolbench@127.0.0.1:33069/poolbench_lab_test"
}

var (
	myOnce    sync.Once
	myAdminDB *sql.DB
	myInitErr error
)

func openMySQL(dsn string) (*sql.DB, error) {
	cfg, err := labdb.MySQLConfig(dsn)
	if err != nil {
		return nil, err
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(connector), nil
}

// myAdmin sets up the MariaDB lab data once and returns an admin pool (the DSN's user).
func myAdmin(t *testing.T) *sql.DB {
	t.Helper()
	if myTestDSN() == "skip" {
		t.Skip("LAB_TEST_MYSQL_URL=skip")
	}
	myOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := labdb.SetupMySQL(ctx, myTestDSN(), testSizes); err != nil {
			myInitErr = fmt.Errorf("MariaDB lab setup failed (is MariaDB up? infra/services.sh start): %w", err)
			return
		}
		myAdminDB, myInitErr = openMySQL(myTestDSN())
		if myInitErr == nil {
			myAdminDB.SetMaxOpenConns(4)
		}
	})
	if myInitErr != nil {
		t.Fatal(myInitErr)
	}
	return myAdminDB
}

// myDSNWith replaces the user, password and database of the test DSN.
func myDSNWith(t *testing.T, user, password, db string) string {
	t.Helper()
	u, err := url.Parse(myTestDSN())
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		u.User = url.UserPassword(user, password)
	}
	if db != "" {
		u.Path = "/" + db
	}
	return u.String()
}

func myDBName(t *testing.T) string {
	t.Helper()
	cfg, err := labdb.MySQLConfig(myTestDSN())
	if err != nil {
		t.Fatal(err)
	}
	return cfg.DBName
}

// myUser creates a MariaDB user for one test (dropped at cleanup), allowed into db
// (default the test database), limited to maxConns connections when > 0. The password
// carries URL-special characters so the DSN decoding is exercised too.
func myUser(t *testing.T, db string, maxConns int) (user, dsn string) {
	t.Helper()
	admin := myAdmin(t)
	if db == "" {
		db = myDBName(t)
	}
	user = uniqueAppName(t)
	const password = "p@ss:w/rd%1"
	ctx := context.Background()
	limit := ""
	if maxConns > 0 {
		limit = fmt.Sprintf(" WITH MAX_USER_CONNECTIONS %d", maxConns)
	}
	if _, err := admin.ExecContext(ctx, fmt.Sprintf("CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'%s", user, password, limit)); err != nil {
		t.Fatalf("create user: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), fmt.Sprintf("DROP USER IF EXISTS '%s'@'127.0.0.1'", user))
	})
	if _, err := admin.ExecContext(ctx, fmt.Sprintf("GRANT ALL PRIVILEGES ON `%s`.* TO '%s'@'127.0.0.1'", db, user)); err != nil {
		t.Fatalf("grant: %v", err)
	}
	return user, myDSNWith(t, user, password, db)
}

// myConns counts the user's connections as MariaDB sees them (the readiness probe included:
// it lives for a moment only, so assertions wait for a stable count).
func myConns(t *testing.T, user string) int {
	t.Helper()
	var n int
	if err := myAdmin(t).QueryRow(`SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = ?`, user).Scan(&n); err != nil {
		t.Fatalf("PROCESSLIST: %v", err)
	}
	return n
}

// waitConns waits until the user has exactly want connections.
func waitConns(t *testing.T, user string, want int, timeout time.Duration, what string) {
	t.Helper()
	last := -1
	deadline := time.Now().Add(timeout)
	for {
		if last = myConns(t, user); last == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: MariaDB shows %d connections of %s after %s, want %d", what, last, user, timeout, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startMyInstance runs an in-process lab target on MariaDB as its own user (returned).
func startMyInstance(t *testing.T, maxUserConns int, tune func(*config.Config)) (*instance, string) {
	t.Helper()
	user, dsn := myUser(t, "", maxUserConns)
	cfg := config.Defaults()
	cfg.DatabaseURL = dsn
	cfg.AppName = user
	cfg.ConnectTimeout = 5 * time.Second
	cfg.RequestTimeout = 20 * time.Second
	if tune != nil {
		tune(&cfg)
	}
	cfg.Resolve()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil)).With("app", user)
	}
	a, err := app.New(cfg, log)
	if err != nil {
		t.Fatalf("app.New: %v", err)
	}
	a.Start()
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		a.Close()
	})
	return &instance{URL: srv.URL, App: a, AppName: user}, user
}

func myCount(t *testing.T, db *sql.DB, query string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}
