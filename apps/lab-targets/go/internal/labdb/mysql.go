package labdb

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"poolbench.dev/lab-target/internal/config"
)

// IsMySQL reports whether dsn points at MariaDB/MySQL (mysql:// or mariadb://) rather
// than Postgres. Everything else is handed to pgx unchanged.
func IsMySQL(dsn string) bool { return config.IsMySQL(dsn) }

// MySQLConfig converts PoolBench's URL form mysql://user:pw@host:port/db?params (or
// mariadb://) into the driver's configuration: user and password URL-decoded, default
// port 3306, parseTime and interpolateParams on (one round trip per query, no server-side
// prepared statements), and every query parameter passed through to the driver (unknown
// ones become session variables, as the driver does for its own DSN form).
func MySQLConfig(dsn string) (*mysql.Config, error) {
	u, err := url.Parse(strings.TrimSpace(dsn))
	if err != nil {
		return nil, fmt.Errorf("invalid MariaDB URL: %w", err)
	}
	if s := strings.ToLower(u.Scheme); s != "mysql" && s != "mariadb" {
		return nil, fmt.Errorf("invalid MariaDB URL: scheme %q, want mysql:// or mariadb://", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("invalid MariaDB URL: no host")
	}
	cfg := mysql.NewConfig()
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	cfg.Net = "tcp"
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "3306"
	}
	cfg.Addr = net.JoinHostPort(host, port)
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	cfg.ParseTime = true
	cfg.InterpolateParams = true
	if u.RawQuery != "" {
		// Let the driver parse its own options (tls, charset, session variables, ...).
		extra, err := mysql.ParseDSN("tcp(" + cfg.Addr + ")/?" + u.RawQuery)
		if err != nil {
			return nil, fmt.Errorf("invalid MariaDB URL parameters: %w", err)
		}
		extra.User, extra.Passwd, extra.DBName = cfg.User, cfg.Passwd, cfg.DBName
		if !strings.Contains(u.RawQuery, "parseTime=") {
			extra.ParseTime = true
		}
		if !strings.Contains(u.RawQuery, "interpolateParams=") {
			extra.InterpolateParams = true
		}
		cfg = extra
	}
	return cfg, nil
}

// MySQLSessionSettings applies what every connection of a lab-target instance shares on
// MariaDB: the connect timeout (dial; the handshake is bounded by the caller's context) and
// the statement timeout as max_statement_time (seconds, fractional), set by the driver on
// every new connection.
func MySQLSessionSettings(cfg *mysql.Config, connectTimeout, statementTimeout time.Duration) {
	if connectTimeout > 0 {
		cfg.Timeout = connectTimeout
	}
	if statementTimeout > 0 {
		if cfg.Params == nil {
			cfg.Params = map[string]string{}
		}
		cfg.Params["max_statement_time"] = strconv.FormatFloat(statementTimeout.Seconds(), 'f', 6, 64)
	}
}

// MySQL error numbers the lab target reacts to. labtarget_db_errors_total and the
// `sqlstate` field of db_error answers carry the number (e.g. "1064") on MariaDB.
const (
	MyTooManyConnections     = "1040" // ER_CON_COUNT_ERROR: max_connections
	MyTooManyUserConnections = "1203" // ER_TOO_MANY_USER_CONNECTIONS: global max_user_connections
	MyUserLimitReached       = "1226" // ER_USER_LIMIT_REACHED: the account's MAX_USER_CONNECTIONS
	MyNoSuchTable            = "1146" // ER_NO_SUCH_TABLE
	MyBadField               = "1054" // ER_BAD_FIELD_ERROR
	MyStatementTimeout       = "1969" // ER_STATEMENT_TIMEOUT: max_statement_time exceeded
	MyBadDB                  = "1049" // ER_BAD_DB_ERROR
)

// IsTooManyClients: the server refused a connection for its connection limits (Postgres
// 53300; MariaDB 1040, 1203 and the per-account limit 1226).
func IsTooManyClients(code string) bool {
	return code == TooManyConnections || code == MyTooManyConnections ||
		code == MyTooManyUserConnections || code == MyUserLimitReached
}

// IsSchemaMissing: the lab tables are not there (run setup).
func IsSchemaMissing(code string) bool { return code == UndefinedTable || code == MyNoSuchTable }

// IsStatementTimeout: the statement timeout cancelled the query.
func IsStatementTimeout(code string) bool { return code == QueryCanceled || code == MyStatementTimeout }

// IsUndefinedColumn: /query asked for more fields than the table has.
func IsUndefinedColumn(code string) bool { return code == UndefinedColumn || code == MyBadField }

func mysqlCode(err error) (string, bool) {
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		return strconv.Itoa(int(myErr.Number)), true
	}
	return "", false
}
