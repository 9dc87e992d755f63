package dev.poolbench.labtarget;

import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** The HTTP endpoints, with the Go lab target's paths, status codes and JSON shapes. */
final class Server {
    static final int STATUS_CLIENT_CLOSED = 499;
    static final int MAX_FIELDS = 1000;
    static final int COUNTER_ROWS = 1000;

    private final Config cfg;
    private final Dialect dialect;
    private final Pools.Strategy strategy;
    private final Metrics metrics;
    private final Readiness readiness;
    private final AtomicLong rr = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final Log.RateLimited errLog = new Log.RateLimited();

    Server(Config cfg, Dialect dialect, Pools.Strategy strategy, Metrics metrics, Readiness readiness) {
        this.cfg = cfg;
        this.dialect = dialect;
        this.strategy = strategy;
        this.metrics = metrics;
        this.readiness = readiness;
    }

    /**
     * One request: the exchange, its parsed query, deadline and the status it was answered with. A routed
     * request (one with a name) is counted in the request metrics once, before the last byte of its answer
     * is sent, so a client that reads the answer and then scrapes /metrics always finds it counted.
     */
    final class Ex {
        final HttpExchange x;
        final Map<String, String> q;
        final String name;
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + cfg.requestTimeoutMs * 1_000_000L;
        int code;
        private boolean counted;

        Ex(HttpExchange x) {
            this(x, null);
        }

        Ex(HttpExchange x, String name) {
            this.x = x;
            this.name = name;
            this.q = parseQuery(x.getRequestURI().getRawQuery());
        }

        /** Counts the request with its status (STATUS_CLIENT_CLOSED when none was sent); only the first call counts. */
        void count() {
            if (counted || name == null) {
                return;
            }
            counted = true;
            int status = code == 0 ? STATUS_CLIENT_CLOSED : code;
            metrics.httpDuration.with(name, Integer.toString(status)).observe((System.nanoTime() - startNs) / 1e9);
        }

        String param(String name) {
            return q.getOrDefault(name, "");
        }

        boolean expired() {
            return System.nanoTime() - deadlineNs >= 0;
        }

        /** Seconds left for a statement (JDBC query timeout granularity), at least 1. */
        int queryTimeoutSeconds() {
            long ms = Math.max(0, (deadlineNs - System.nanoTime()) / 1_000_000);
            return (int) Math.max(1, (ms + 999) / 1000);
        }

        void json(int status, String body) throws IOException {
            byte[] b = (body + "\n").getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", "application/json");
            code = status;
            count();
            x.sendResponseHeaders(status, b.length);
            try (OutputStream os = x.getResponseBody()) {
                os.write(b);
            }
        }

        void error(int status, String err, String msg) throws IOException {
            json(status, Json.obj("error", err, "message", msg));
        }
    }

    static Map<String, String> parseQuery(String raw) {
        Map<String, String> m = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return m;
        }
        for (String part : raw.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String k = eq >= 0 ? part.substring(0, eq) : part;
            String v = eq >= 0 ? part.substring(eq + 1) : "";
            try {
                m.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                // malformed escape: ignore this pair, as a lenient parser would
            }
        }
        return m;
    }

    private interface Handler {
        void handle(Ex e) throws Exception;
    }

    /** Entry point of every exchange (runs on the HTTP executor). */
    void dispatch(HttpExchange x) {
        inFlight.incrementAndGet();
        try {
            dispatchCounted(x);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Exchanges being answered (for the graceful shutdown). */
    int inFlight() {
        return inFlight.get();
    }

    private void dispatchCounted(HttpExchange x) {
        String path = x.getRequestURI().getPath();
        String method = x.getRequestMethod();
        x.getResponseHeaders().set("X-Instance-Id", cfg.instanceId);
        try {
            switch (path) {
                case "/health" -> route(x, method, "health", "GET", this::health);
                case "/roles" -> route(x, method, "roles", "GET", this::roles);
                case "/query" -> route(x, method, "query", "GET", this::query);
                case "/work" -> route(x, method, "work", method.equals("POST") ? "POST" : "GET", this::work);
                case "/upload" -> route(x, method, "upload", "POST", this::upload);
                case "/login" -> route(x, method, "login", "POST", this::login);
                case "/me" -> route(x, method, "me", "GET", this::me);
                case "/ready" -> route(x, method, "ready", "GET", this::ready);
                case "/metrics" -> {
                    if (!method.equals("GET") && !method.equals("HEAD")) {
                        new Ex(x).error(405, "method_not_allowed", "use GET");
                        return;
                    }
                    byte[] b = metrics.render().getBytes(StandardCharsets.UTF_8);
                    x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                    x.sendResponseHeaders(200, b.length);
                    try (OutputStream os = x.getResponseBody()) {
                        os.write(b);
                    }
                }
                default -> new Ex(x).error(404, "not_found", "no endpoint " + path);
            }
        } catch (IOException e) {
            // client gone
        } finally {
            x.close();
        }
    }

    private void route(HttpExchange x, String method, String name, String allowed, Handler h) throws IOException {
        Ex e = new Ex(x, name);
        if (!method.equals(allowed) && !(allowed.equals("GET") && method.equals("HEAD"))) {
            e.error(405, "method_not_allowed", "use " + allowed + " " + x.getRequestURI().getPath());
            return;
        }
        try {
            if (!name.equals("login")) {
                drain(x.getRequestBody()); // POST /login reads its own body
            }
            h.handle(e);
        } catch (IOException io) {
            if (e.code == 0) {
                e.code = STATUS_CLIENT_CLOSED;
            }
        } catch (Exception ex) {
            errLog.warn("request failed", "path", x.getRequestURI().getPath(), "err", ex.toString());
            if (e.code == 0) {
                try {
                    e.error(500, "internal_error", ex.toString());
                } catch (IOException ignored) {
                    e.code = STATUS_CLIENT_CLOSED;
                }
            }
        } finally {
            e.count();
        }
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buf = new byte[8192];
        while (in.read(buf) >= 0) {
            // discard: the endpoints but /login read no body (keeps keep-alive connections usable)
        }
    }

    // ---- request -> strategy --------------------------------------------------------------

    /** Reads priority and shard; null means a 400 was sent. */
    private Pools.Req request(Ex e) throws IOException {
        String prio = e.x.getRequestHeaders().getFirst("X-Priority");
        boolean high = "high".equalsIgnoreCase(prio) || "high".equalsIgnoreCase(e.param("priority"));
        int n = strategy.shards();
        int shard = -1;
        if (n > 0) {
            if (!e.param("shard").isEmpty()) {
                int v;
                try {
                    v = Integer.parseInt(e.param("shard"));
                } catch (NumberFormatException nfe) {
                    v = -1;
                }
                if (v < 0 || v >= n) {
                    e.error(400, "bad_shard", "shard must be an integer in [0," + n + ")");
                    return null;
                }
                shard = v;
            } else if (!e.param("key").isEmpty()) {
                shard = (int) (fnv32a(e.param("key").getBytes(StandardCharsets.UTF_8)) % n);
            } else {
                shard = (int) (rr.incrementAndGet() % n);
            }
        }
        return new Pools.Req(e.deadlineNs, high, shard);
    }

    static long fnv32a(byte[] data) {
        int h = 0x811c9dc5;
        for (byte b : data) {
            h ^= (b & 0xff);
            h *= 0x01000193;
        }
        return Integer.toUnsignedLong(h);
    }

    /** Acquires a connection or answers the error; null means the response was sent. */
    private Pools.Lease lease(Ex e) throws IOException {
        Pools.Req r = request(e);
        if (r == null) {
            return null;
        }
        try {
            Pools.Lease l = strategy.acquire(r);
            e.x.getResponseHeaders().set("X-Pool", l.pool);
            return l;
        } catch (Exception ex) {
            fail(e, ex);
            return null;
        }
    }

    /** Answers err with a stable error code and counts it. */
    private void fail(Ex e, Throwable err) throws IOException {
        if (err instanceof Pools.AcquireTimeoutException t) {
            e.json(503, Json.obj("error", "pool_acquire_timeout", "pool", t.pool, "waitedMs", t.waitedMs,
                    "message", t.getMessage() + "; raise --max-conns or --acquire-timeout, or lower the load"));
            return;
        }
        if (err instanceof IOException io) {
            throw io;
        }
        record(err);
        errLog.warn("request failed", "path", e.x.getRequestURI().getPath(), "err", String.valueOf(err.getMessage()));
        if (err instanceof Pools.RequestTimeoutException || e.expired()) {
            e.error(504, "request_timeout", "request exceeded --request-timeout: " + err.getMessage());
            return;
        }
        if (!(err instanceof SQLException) && Dialect.firstSql(err) == null) {
            e.error(500, "internal_error", String.valueOf(err.getMessage()));
            return;
        }
        String state = dialect.sqlState(err);
        String msg = String.valueOf(Dialect.firstSql(err).getMessage());
        switch (dialect.kind(err)) {
            case TOO_MANY_CLIENTS -> e.json(503, Json.obj("error", "db_too_many_clients", "sqlstate", state, "message", msg));
            case UNDEFINED_TABLE -> e.error(503, "lab_schema_missing",
                    "lab data not found: run `lab-target setup --database-url=...` first");
            case STATEMENT_TIMEOUT -> e.json(504, Json.obj("error", "statement_timeout", "sqlstate", state, "message", msg));
            case UNAVAILABLE -> e.error(503, "db_unavailable", msg);
            default -> e.json(500, Json.obj("error", "db_error", "sqlstate", state, "message", msg));
        }
    }

    /** Counts err in labtarget_db_errors_total (and the too-many-clients counter). */
    private void record(Throwable err) {
        String state = err instanceof Pools.RequestTimeoutException ? "none" : dialect.sqlState(err);
        metrics.dbErrors.with(state).increment();
        if (!(err instanceof Pools.RequestTimeoutException) && dialect.kind(err) == Dialect.Kind.TOO_MANY_CLIENTS) {
            metrics.tooManyClients.increment();
        }
    }

    private static Integer intParam(Ex e, String name, int def, int lo, int hi) {
        String v = e.param(name);
        if (v.isEmpty()) {
            return def;
        }
        try {
            int n = Integer.parseInt(v);
            return n < lo || n > hi ? null : n;
        } catch (NumberFormatException nfe) {
            return null;
        }
    }

    // ---- endpoints ------------------------------------------------------------------------

    /** Pings the database through the strategy (seed 004's GET /health). */
    private void health(Ex e) throws IOException {
        Pools.Lease l = lease(e);
        if (l == null) {
            return;
        }
        try {
            try (Statement st = l.conn.createStatement()) {
                st.setQueryTimeout(e.queryTimeoutSeconds());
                st.execute("SELECT 1");
            }
        } catch (SQLException ex) {
            l.release();
            fail(e, ex);
            return;
        }
        l.release();
        e.json(200, Json.obj("status", "ok", "pool", l.pool, "instanceId", cfg.instanceId));
    }

    /** Every role with its permissions via roles ⋈ role_permissions ⋈ permissions (seed 002). */
    private void roles(Ex e) throws IOException {
        Pools.Lease l = lease(e);
        if (l == null) {
            return;
        }
        String sql = "SELECT r.id, r.name, r.description, p.id, p.name, p.resource, p.action FROM "
                + dialect.table("roles") + " r LEFT JOIN " + dialect.table("role_permissions")
                + " rp ON rp.role_id = r.id LEFT JOIN " + dialect.table("permissions")
                + " p ON p.id = rp.permission_id ORDER BY r.id, p.id";
        StringBuilder b = new StringBuilder(16 << 10).append('[');
        try (Statement st = l.conn.createStatement()) {
            st.setQueryTimeout(e.queryTimeoutSeconds());
            try (ResultSet rs = st.executeQuery(sql)) {
                long lastRole = Long.MIN_VALUE;
                boolean firstPerm = true;
                while (rs.next()) {
                    long id = rs.getLong(1);
                    if (id != lastRole) {
                        if (lastRole != Long.MIN_VALUE) {
                            b.append("]},");
                        }
                        b.append("{\"id\":").append(id).append(",\"name\":");
                        Json.str(b, rs.getString(2));
                        b.append(",\"description\":");
                        Json.str(b, rs.getString(3));
                        b.append(",\"permissions\":[");
                        lastRole = id;
                        firstPerm = true;
                    }
                    long pid = rs.getLong(4);
                    if (!rs.wasNull()) {
                        if (!firstPerm) {
                            b.append(',');
                        }
                        firstPerm = false;
                        b.append("{\"id\":").append(pid).append(",\"name\":");
                        Json.str(b, rs.getString(5));
                        b.append(",\"resource\":");
                        Json.str(b, rs.getString(6));
                        b.append(",\"action\":");
                        Json.str(b, rs.getString(7));
                        b.append('}');
                    }
                }
                if (lastRole != Long.MIN_VALUE) {
                    b.append("]}");
                }
            }
        } catch (SQLException ex) {
            l.release();
            fail(e, ex);
            return;
        }
        l.release();
        e.json(200, b.append(']').toString());
    }

    /** rows × (id + fields) from wide_rows, streamed row by row, the connection held to the last row (seed 001). */
    private void query(Ex e) throws IOException {
        Integer rows = intParam(e, "rows", 100, 0, cfg.maxRows);
        if (rows == null) {
            e.error(400, "bad_rows", "rows must be an integer in [0, --max-rows]");
            return;
        }
        Integer fields = intParam(e, "fields", 10, 0, MAX_FIELDS);
        if (fields == null) {
            e.error(400, "bad_fields", "fields must be an integer in [0, 1000]");
            return;
        }
        Pools.Lease l = lease(e);
        if (l == null) {
            return;
        }
        Connection c = l.conn;
        PreparedStatement ps = null;
        ResultSet rs = null;
        boolean txOpen = false;
        try {
            StringBuilder sql = new StringBuilder("SELECT id");
            for (int i = 1; i <= fields; i++) {
                sql.append(", f").append(i);
            }
            sql.append(" FROM ").append(dialect.table("wide_rows"));
            if (l.shard >= 0) {
                sql.append(" WHERE id % ").append(strategy.shards()).append(" = ").append(l.shard);
            }
            sql.append(" ORDER BY id LIMIT ?");
            try {
                if (dialect == Dialect.POSTGRES) {
                    c.setAutoCommit(false); // pgjdbc streams through a cursor only inside a transaction
                    txOpen = true;
                }
                ps = c.prepareStatement(sql.toString(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
                ps.setFetchSize(256);
                ps.setQueryTimeout(e.queryTimeoutSeconds());
                ps.setInt(1, rows);
                rs = ps.executeQuery();
            } catch (SQLException ex) {
                if (dialect.kind(ex) == Dialect.Kind.UNDEFINED_COLUMN) {
                    e.error(400, "too_many_fields", "fields exceeds the lab table's fields (see lab-target setup --fields)");
                    return;
                }
                fail(e, ex);
                return;
            }
            streamRows(e, rs);
        } finally {
            closeQuietly(rs);
            closeQuietly(ps);
            if (txOpen) {
                try {
                    c.rollback();
                    c.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // HikariCP resets the connection state on return anyway
                }
            }
            l.release();
        }
    }

    private void streamRows(Ex e, ResultSet rs) throws IOException {
        String[] names;
        boolean[] numeric;
        boolean more;
        try {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            names = new String[n];
            numeric = new boolean[n];
            for (int i = 0; i < n; i++) {
                StringBuilder nb = new StringBuilder();
                Json.str(nb, md.getColumnLabel(i + 1));
                names[i] = nb.append(':').toString();
                int t = md.getColumnType(i + 1);
                numeric[i] = t == Types.BIGINT || t == Types.INTEGER || t == Types.SMALLINT || t == Types.TINYINT;
            }
            more = rs.next(); // look at the first row before committing to 200
        } catch (SQLException ex) {
            fail(e, ex);
            return;
        }
        e.x.getResponseHeaders().set("Content-Type", "application/json");
        e.code = 200;
        e.x.sendResponseHeaders(200, 0); // chunked
        OutputStream raw = e.x.getResponseBody();
        BufferedOutputStream out = new BufferedOutputStream(raw, 32 << 10);
        StringBuilder row = new StringBuilder(1024);
        out.write('[');
        boolean first = true;
        try {
            while (more) {
                row.setLength(0);
                if (!first) {
                    row.append(',');
                }
                first = false;
                row.append('{');
                for (int i = 0; i < names.length; i++) {
                    if (i > 0) {
                        row.append(',');
                    }
                    row.append(names[i]);
                    if (numeric[i]) {
                        long v = rs.getLong(i + 1);
                        row.append(rs.wasNull() ? "null" : Long.toString(v));
                    } else {
                        String v = rs.getString(i + 1);
                        if (v == null) {
                            row.append("null");
                        } else {
                            Json.str(row, v);
                        }
                    }
                }
                row.append("}\n");
                out.write(row.toString().getBytes(StandardCharsets.UTF_8));
                more = rs.next();
            }
        } catch (SQLException ex) {
            // Headers are sent; a truncated body is the only signal left. Count and log it.
            record(ex);
            errLog.warn("query stream failed", "path", "/query", "err", String.valueOf(ex.getMessage()));
            out.flush();
            e.count();
            raw.close();
            return;
        }
        out.write(']');
        out.write('\n');
        out.flush();
        e.count();
        raw.close();
    }

    /** Holds a connection for ?ms= (seed 003); POST or ?write=1 also updates a counter row in the same transaction. */
    private void work(Ex e) throws IOException {
        Integer ms = intParam(e, "ms", 100, 0, (int) Math.min(Integer.MAX_VALUE, cfg.maxWorkMs));
        if (ms == null) {
            e.error(400, "bad_ms", "ms must be an integer in [0, --max-work]");
            return;
        }
        boolean write = e.x.getRequestMethod().equals("POST") || e.param("write").equals("1");
        Pools.Lease l = lease(e);
        if (l == null) {
            return;
        }
        long start = System.nanoTime();
        Connection c = l.conn;
        try {
            if (write) {
                c.setAutoCommit(false);
                try {
                    try (PreparedStatement ps = c.prepareStatement(dialect.touchCounterSql())) {
                        ps.setQueryTimeout(e.queryTimeoutSeconds());
                        ps.setInt(1, 1 + ThreadLocalRandom.current().nextInt(COUNTER_ROWS));
                        ps.executeUpdate();
                    }
                    sleep(e, c, ms);
                    c.commit();
                } catch (SQLException ex) {
                    try {
                        c.rollback();
                    } catch (SQLException ignored) {
                        // the connection may be gone; HikariCP discards it
                    }
                    throw ex;
                } finally {
                    try {
                        c.setAutoCommit(true);
                    } catch (SQLException ignored) {
                        // HikariCP resets autoCommit on return
                    }
                }
            } else {
                sleep(e, c, ms);
            }
        } catch (SQLException ex) {
            l.release();
            fail(e, ex);
            return;
        }
        l.release();
        e.json(200, Json.obj("ms", ms, "write", write, "pool", l.pool, "heldMs", (System.nanoTime() - start) / 1_000_000));
    }

    private void sleep(Ex e, Connection c, int ms) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(dialect.sleepSql())) {
            ps.setQueryTimeout(e.queryTimeoutSeconds());
            ps.setDouble(1, ms / 1000.0);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // drain
                }
            }
        }
    }

    /** Checks username and password with one query on a pool connection, held for that query only. */
    private void login(Ex e) throws IOException {
        InputStream in = e.x.getRequestBody();
        byte[] raw = in.readNBytes(Auth.MAX_LOGIN_BODY + 1);
        drain(in);
        Auth.Login creds = raw.length > Auth.MAX_LOGIN_BODY ? null
                : Auth.parseLogin(new String(raw, StandardCharsets.UTF_8));
        if (creds == null) {
            e.error(400, "bad_login", Auth.MSG_BAD_LOGIN);
            return;
        }
        Pools.Lease l = lease(e);
        if (l == null) {
            return;
        }
        int id = -1;
        String stored = null;
        try (PreparedStatement ps = l.conn.prepareStatement(
                "SELECT id, password FROM " + dialect.table("users") + " WHERE username = ?")) {
            ps.setQueryTimeout(e.queryTimeoutSeconds());
            ps.setString(1, creds.username());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    id = rs.getInt(1);
                    stored = rs.getString(2);
                }
            }
        } catch (SQLException ex) {
            l.release();
            fail(e, ex);
            return;
        }
        l.release();
        if (stored == null || !Auth.same(stored, creds.password())) {
            e.error(401, "bad_credentials", Auth.MSG_BAD_CREDENTIALS);
            return;
        }
        e.json(200, Json.obj("token", Auth.token(id), "userId", id));
    }

    /** Verifies the bearer token without the database, then reads its user through the pool. */
    private void me(Ex e) throws IOException {
        int id = Auth.bearerUser(e.x.getRequestHeaders().getFirst("Authorization"));
        if (id < 0) {
            e.error(401, "unauthorized", Auth.MSG_UNAUTHORIZED);
            return;
        }
        Pools.Lease l = lease(e);
        if (l == null) {
            return;
        }
        String username = null;
        try (PreparedStatement ps = l.conn.prepareStatement(
                "SELECT username FROM " + dialect.table("users") + " WHERE id = ?")) {
            ps.setQueryTimeout(e.queryTimeoutSeconds());
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    username = rs.getString(1);
                }
            }
        } catch (SQLException ex) {
            l.release();
            fail(e, ex);
            return;
        }
        l.release();
        if (username == null) {
            e.error(404, "user_not_found", Auth.MSG_USER_NOT_FOUND);
            return;
        }
        e.json(200, Json.obj("id", id, "username", username));
    }

    private void upload(Ex e) throws IOException {
        e.error(501, "not_supported", "java-hikari has no /upload");
    }

    /** 200 only when start-up work is done and the database answers. */
    private void ready(Ex e) throws IOException {
        Readiness.State s = readiness.check();
        List<Json.Raw> pools = new ArrayList<>();
        for (Metrics.PoolStats p : strategy.stats()) {
            pools.add(new Json.Raw(p.json()));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ready", s.ready());
        body.put("strategy", cfg.strategy);
        body.put("instanceId", cfg.instanceId);
        body.put("applicationName", cfg.appName);
        body.put("runtime", "java-hikari");
        body.put("pools", pools);
        if (!s.ready()) {
            body.put("reason", s.reason());
        }
        StringBuilder b = new StringBuilder();
        Json.value(b, body);
        e.json(s.ready() ? 200 : 503, b.toString());
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // already failed or closed
            }
        }
    }
}
