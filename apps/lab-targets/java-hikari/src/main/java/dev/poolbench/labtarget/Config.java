package dev.poolbench.labtarget;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The serve configuration: the same flags (and LAB_* env vars) as the Go lab target, so the
 * worker can start either runtime with one command line. Durations are held in milliseconds.
 */
final class Config {
    static final List<String> SUPPORTED =
            List.of("fixed", "elastic", "prewarm", "partitioned", "priority", "borrowing", "adaptive");

    String strategy = "fixed";
    String listen = "127.0.0.1:8080";
    String databaseUrl = "";
    String upstreamUrl = "";
    boolean upstreamInsecure;
    String instanceId = "0";
    String appName = "";

    int maxConns = 10;
    int minConns = 0;
    long acquireTimeoutMs = 0;
    long connectTimeoutMs = 5_000;
    long idleTimeoutMs = 30 * 60_000;
    long maxLifetimeMs = 60 * 60_000;
    long healthCheckPeriodMs = 60_000;
    long statementTimeoutMs = 0;
    long keepaliveMs = 30_000;

    int initialConns = -1;
    int growStep = 10;
    int shrinkStep = 5;
    long growWaitThresholdMs = 100;
    long shrinkIdleMs = 5 * 60_000;
    long checkIntervalMs = 1_000;

    int shards = 4;
    int secondaryMaxConns = -1;
    long backgroundIntervalMs = 500;
    int upstreamConns = -1;

    long requestTimeoutMs = 60_000;
    long maxWorkMs = 30_000;
    int maxRows = 100_000;
    long shutdownTimeoutMs = 10_000;

    /** A bad flag or value: the CLI prints the message and exits 2. */
    static final class UsageException extends Exception {
        UsageException(String msg) {
            super(msg);
        }
    }

    private interface Setter {
        void set(Config c, String v) throws UsageException;
    }

    private static final Map<String, Setter> FLAGS = new LinkedHashMap<>();
    private static final List<String> BOOL_FLAGS = List.of("upstream-insecure");

    private static void str(String name, java.util.function.BiConsumer<Config, String> f) {
        FLAGS.put(name, (c, v) -> f.accept(c, v));
    }

    private static void num(String name, java.util.function.ObjIntConsumer<Config> f) {
        FLAGS.put(name, (c, v) -> {
            try {
                f.accept(c, Integer.parseInt(v.trim()));
            } catch (NumberFormatException e) {
                throw new UsageException("invalid value \"" + v + "\" for flag --" + name + ": parse error");
            }
        });
    }

    private static void dur(String name, java.util.function.ObjLongConsumer<Config> f) {
        FLAGS.put(name, (c, v) -> {
            Long ms = parseDurationMs(v);
            if (ms == null) {
                throw new UsageException("invalid value \"" + v + "\" for flag --" + name
                        + ": not a duration (use e.g. 250ms, 2s or a number of ms)");
            }
            f.accept(c, ms);
        });
    }

    static {
        str("strategy", (c, v) -> c.strategy = v);
        str("listen", (c, v) -> c.listen = v);
        str("database-url", (c, v) -> c.databaseUrl = v);
        str("upstream-url", (c, v) -> c.upstreamUrl = v);
        FLAGS.put("upstream-insecure", (c, v) -> {
            switch (v.toLowerCase(Locale.ROOT)) {
                case "", "true", "1", "t" -> c.upstreamInsecure = true;
                case "false", "0", "f" -> c.upstreamInsecure = false;
                default -> throw new UsageException("invalid boolean value \"" + v + "\" for --upstream-insecure");
            }
        });
        str("instance-id", (c, v) -> c.instanceId = v);
        str("application-name", (c, v) -> c.appName = v);
        num("max-conns", (c, v) -> c.maxConns = v);
        num("min-conns", (c, v) -> c.minConns = v);
        dur("acquire-timeout", (c, v) -> c.acquireTimeoutMs = v);
        dur("connect-timeout", (c, v) -> c.connectTimeoutMs = v);
        dur("idle-timeout", (c, v) -> c.idleTimeoutMs = v);
        dur("max-lifetime", (c, v) -> c.maxLifetimeMs = v);
        dur("health-check-period", (c, v) -> c.healthCheckPeriodMs = v);
        dur("statement-timeout", (c, v) -> c.statementTimeoutMs = v);
        dur("keepalive", (c, v) -> c.keepaliveMs = v);
        num("initial-conns", (c, v) -> c.initialConns = v);
        num("grow-step", (c, v) -> c.growStep = v);
        num("shrink-step", (c, v) -> c.shrinkStep = v);
        dur("grow-wait-threshold", (c, v) -> c.growWaitThresholdMs = v);
        dur("shrink-idle", (c, v) -> c.shrinkIdleMs = v);
        dur("check-interval", (c, v) -> c.checkIntervalMs = v);
        num("shards", (c, v) -> c.shards = v);
        num("secondary-max-conns", (c, v) -> c.secondaryMaxConns = v);
        dur("background-interval", (c, v) -> c.backgroundIntervalMs = v);
        num("upstream-conns", (c, v) -> c.upstreamConns = v);
        dur("request-timeout", (c, v) -> c.requestTimeoutMs = v);
        dur("max-work", (c, v) -> c.maxWorkMs = v);
        num("max-rows", (c, v) -> c.maxRows = v);
        dur("shutdown-timeout", (c, v) -> c.shutdownTimeoutMs = v);
    }

    /** LAB_<UPPER_SNAKE> for a flag name, as in the Go target: --max-conns -> LAB_MAX_CONNS. */
    static String envName(String flag) {
        return "LAB_" + flag.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * Parses --name=value / --name value (also -name), then fills flags not given from LAB_*
     * env vars (the command line wins), resolves derived defaults and validates.
     */
    static Config parse(String[] args, Function<String, String> getenv) throws UsageException {
        Config c = new Config();
        List<String> given = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("-") || a.equals("-") || a.equals("--")) {
                throw new UsageException("unexpected argument \"" + a + "\"");
            }
            String body = a.startsWith("--") ? a.substring(2) : a.substring(1);
            String name = body;
            String value = null;
            int eq = body.indexOf('=');
            if (eq >= 0) {
                name = body.substring(0, eq);
                value = body.substring(eq + 1);
            }
            Setter s = FLAGS.get(name);
            if (s == null) {
                throw new UsageException("flag provided but not defined: --" + name);
            }
            if (value == null) {
                if (BOOL_FLAGS.contains(name)) {
                    value = "true";
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new UsageException("flag needs an argument: --" + name);
                }
            }
            s.set(c, value);
            given.add(name);
        }
        for (Map.Entry<String, Setter> f : FLAGS.entrySet()) {
            if (given.contains(f.getKey())) {
                continue;
            }
            String v = getenv.apply(envName(f.getKey()));
            if (v != null && !v.isEmpty()) {
                try {
                    f.getValue().set(c, v);
                } catch (UsageException e) {
                    throw new UsageException(e.getMessage() + " (from " + envName(f.getKey()) + ")");
                }
            }
        }
        c.resolve();
        c.validate();
        return c;
    }

    void resolve() {
        if (secondaryMaxConns < 0) {
            secondaryMaxConns = maxConns;
        }
        if (upstreamConns < 0) {
            upstreamConns = maxConns;
        }
        if (initialConns < 0) {
            initialConns = Math.min(Math.max(minConns, 1), maxConns);
        }
        if (appName.isEmpty()) {
            appName = "labtarget-" + instanceId;
        }
    }

    void validate() throws UsageException {
        if (!SUPPORTED.contains(strategy)) {
            throw new UsageException("invalid --strategy: strategy \"" + strategy
                    + "\" is not supported by java-hikari (supported: " + String.join(", ", SUPPORTED) + ")");
        }
        if (databaseUrl.isEmpty()) {
            throw new UsageException("--database-url is required (or LAB_DATABASE_URL)");
        }
        if (listen.isEmpty()) {
            throw new UsageException("--listen must not be empty");
        }
        if (appName.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 48) {
            throw new UsageException("invalid --application-name \"" + appName + "\": longer than 48 bytes");
        }
        Object[][] ints = {
            {"max-conns", maxConns, 1}, {"min-conns", minConns, 0}, {"initial-conns", initialConns, 1},
            {"grow-step", growStep, 1}, {"shrink-step", shrinkStep, 1}, {"shards", shards, 1},
            {"secondary-max-conns", secondaryMaxConns, 1}, {"upstream-conns", upstreamConns, 1},
            {"max-rows", maxRows, 1},
        };
        for (Object[] f : ints) {
            if ((int) f[1] < (int) f[2]) {
                throw new UsageException("invalid --" + f[0] + " " + f[1] + ": must be >= " + f[2]);
            }
        }
        if (shards > 64) {
            throw new UsageException("invalid --shards " + shards + ": must be <= 64");
        }
        if (minConns > maxConns) {
            throw new UsageException("invalid --min-conns " + minConns + ": greater than --max-conns " + maxConns);
        }
        if (strategy.equals("adaptive") && (initialConns > maxConns || initialConns < minConns)) {
            throw new UsageException("invalid --initial-conns " + initialConns + ": must be within --min-conns "
                    + minConns + " and --max-conns " + maxConns);
        }
        Object[][] durs = {
            {"acquire-timeout", acquireTimeoutMs}, {"connect-timeout", connectTimeoutMs},
            {"idle-timeout", idleTimeoutMs}, {"max-lifetime", maxLifetimeMs},
            {"health-check-period", healthCheckPeriodMs}, {"statement-timeout", statementTimeoutMs},
            {"keepalive", keepaliveMs}, {"grow-wait-threshold", growWaitThresholdMs},
            {"shrink-idle", shrinkIdleMs}, {"check-interval", checkIntervalMs},
            {"background-interval", backgroundIntervalMs}, {"request-timeout", requestTimeoutMs},
            {"max-work", maxWorkMs}, {"shutdown-timeout", shutdownTimeoutMs},
        };
        for (Object[] d : durs) {
            if ((long) d[1] < 0) {
                throw new UsageException("invalid --" + d[0] + " " + d[1] + "ms: must not be negative");
            }
        }
        Object[][] positive = {
            {"check-interval", checkIntervalMs}, {"health-check-period", healthCheckPeriodMs},
            {"request-timeout", requestTimeoutMs}, {"background-interval", backgroundIntervalMs},
        };
        for (Object[] d : positive) {
            if ((long) d[1] == 0) {
                throw new UsageException("invalid --" + d[0] + " 0: must be > 0");
            }
        }
        try {
            DbUrl.parse(databaseUrl);
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid --database-url: " + e.getMessage());
        }
    }

    /**
     * Go duration syntax ("250ms", "2s", "1m30s", "1.5s") or a bare integer number of
     * milliseconds; null when it is neither. Sub-millisecond parts are truncated.
     */
    static Long parseDurationMs(String s) {
        s = s.trim();
        if (s.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException ignored) {
            // not a bare number: try the unit syntax
        }
        boolean neg = false;
        int i = 0;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            neg = s.charAt(0) == '-';
            i = 1;
        }
        if (i >= s.length()) {
            return null;
        }
        double totalNs = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            if (start == i) {
                return null;
            }
            double n;
            try {
                n = Double.parseDouble(s.substring(start, i));
            } catch (NumberFormatException e) {
                return null;
            }
            int us = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            double unit;
            switch (s.substring(us, i)) {
                case "ns" -> unit = 1;
                case "us", "µs", "μs" -> unit = 1e3;
                case "ms" -> unit = 1e6;
                case "s" -> unit = 1e9;
                case "m" -> unit = 60e9;
                case "h" -> unit = 3600e9;
                default -> {
                    return null;
                }
            }
            totalNs += n * unit;
        }
        long ms = (long) (totalNs / 1e6);
        return neg ? -ms : ms;
    }
}
