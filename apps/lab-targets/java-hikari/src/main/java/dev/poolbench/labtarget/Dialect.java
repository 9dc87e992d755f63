package dev.poolbench.labtarget;

import java.sql.SQLException;
import java.util.Properties;

/**
 * What differs between Postgres and MariaDB: driver, table names, the sleep query, the
 * per-session statement timeout, how a connection is named, and how errors are classified.
 */
enum Dialect {
    POSTGRES("postgresql", 5432, "org.postgresql.Driver"),
    MARIADB("mariadb", 3306, "org.mariadb.jdbc.Driver");

    final String jdbcScheme;
    final int defaultPort;
    final String driverClass;

    Dialect(String jdbcScheme, int defaultPort, String driverClass) {
        this.jdbcScheme = jdbcScheme;
        this.defaultPort = defaultPort;
        this.driverClass = driverClass;
    }

    /** Lab tables: schema "lab" on Postgres, the DSN's own database on MariaDB. */
    String table(String name) {
        return this == POSTGRES ? "lab." + name : name;
    }

    String sleepSql() {
        return this == POSTGRES ? "SELECT pg_sleep(?)" : "SELECT SLEEP(?)";
    }

    String touchCounterSql() {
        return this == POSTGRES
                ? "UPDATE lab.counters SET hits = hits + 1, touched_at = now() WHERE id = ?"
                : "UPDATE counters SET hits = hits + 1, touched_at = now() WHERE id = ?";
    }

    /** SQL run on every new connection (HikariCP connectionInitSql), or null. */
    String initSql(long statementTimeoutMs) {
        if (statementTimeoutMs <= 0) {
            return null;
        }
        return this == POSTGRES
                ? "SET statement_timeout = " + statementTimeoutMs
                : "SET SESSION max_statement_time = " + (statementTimeoutMs / 1000.0);
    }

    /** Driver properties shared by every connection of one pool (or the readiness probe). */
    Properties driverProps(DbUrl url, String applicationName, long connectTimeoutMs) {
        Properties p = new Properties();
        if (url.user() != null) {
            p.setProperty("user", url.user());
        }
        if (url.password() != null) {
            p.setProperty("password", url.password());
        }
        if (this == POSTGRES) {
            p.setProperty("ApplicationName", applicationName);
            if (connectTimeoutMs > 0) {
                // pgjdbc takes whole seconds
                String secs = Long.toString(Math.max(1, (connectTimeoutMs + 999) / 1000));
                p.setProperty("connectTimeout", secs);
                p.setProperty("loginTimeout", secs);
            }
        } else {
            if (connectTimeoutMs > 0) {
                p.setProperty("connectTimeout", Long.toString(connectTimeoutMs));
            }
        }
        return p;
    }

    // ---- error classification -------------------------------------------------------------

    enum Kind { TOO_MANY_CLIENTS, UNDEFINED_TABLE, UNDEFINED_COLUMN, STATEMENT_TIMEOUT, UNAVAILABLE, OTHER }

    /** The SQLSTATE label for labtarget_db_errors_total: "none" when not from the server. */
    String sqlState(Throwable t) {
        SQLException e = firstSql(t);
        if (e == null) {
            return "none";
        }
        Kind k = kind(e);
        if (k == Kind.UNAVAILABLE) {
            return "none";
        }
        if (k == Kind.TOO_MANY_CLIENTS) {
            return "53300";
        }
        String s = e.getSQLState();
        return s == null || s.isEmpty() ? "none" : s;
    }

    Kind kind(Throwable t) {
        SQLException e = firstSql(t);
        if (e == null) {
            return Kind.UNAVAILABLE;
        }
        String s = e.getSQLState() == null ? "" : e.getSQLState();
        int code = e.getErrorCode();
        if (this == POSTGRES) {
            return switch (s) {
                case "53300" -> Kind.TOO_MANY_CLIENTS;
                case "42P01", "3F000" -> Kind.UNDEFINED_TABLE;
                case "42703" -> Kind.UNDEFINED_COLUMN;
                case "57014" -> Kind.STATEMENT_TIMEOUT;
                default -> s.startsWith("08") || s.isEmpty() ? Kind.UNAVAILABLE : Kind.OTHER;
            };
        }
        if (code == 1040 || code == 1203 || code == 1226) {
            return Kind.TOO_MANY_CLIENTS;
        }
        if (code == 1146 || code == 1049) {
            return Kind.UNDEFINED_TABLE;
        }
        if (code == 1054) {
            return Kind.UNDEFINED_COLUMN;
        }
        if (code == 1969 || code == 3024) {
            return Kind.STATEMENT_TIMEOUT;
        }
        return s.startsWith("08") || s.isEmpty() ? Kind.UNAVAILABLE : Kind.OTHER;
    }

    /** The first SQLException in the cause chain (the driver's, under HikariCP's wrappers). */
    static SQLException firstSql(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException se) {
                return se;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
