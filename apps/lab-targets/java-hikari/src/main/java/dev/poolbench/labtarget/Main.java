package dev.poolbench.labtarget;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * lab-target-hikari: PoolBench's lab target contract served through real HikariCP pools.
 * Exit codes: 0 ok, 1 runtime failure (cannot listen), 2 bad usage.
 */
public final class Main {
    static final String VERSION = "0.1.0";
    private static final String USAGE = """
            usage: lab-target-hikari [serve] --database-url=... [flags]   run the lab target (see README.md)
                   lab-target-hikari version
            """;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * What serves a run, as its run page shows it: this program, the JVM, and the pool and the
     * JDBC drivers on its class path (their versions from the jars' own Maven metadata).
     */
    static String versionLine() {
        return "lab-target-hikari " + VERSION
                + " (java " + System.getProperty("java.version") + ", " + System.getProperty("java.vm.name")
                + "; HikariCP " + mavenVersion("com.zaxxer", "HikariCP")
                + "; MariaDB Connector/J " + mavenVersion("org.mariadb.jdbc", "mariadb-java-client")
                + "; pgJDBC " + org.postgresql.util.DriverInfo.DRIVER_VERSION + ")";
    }

    static String mavenVersion(String group, String artifact) {
        String path = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (java.io.InputStream in = Main.class.getResourceAsStream(path)) {
            if (in == null) return "unknown";
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    static int run(String[] args) {
        String cmd = "serve";
        if (args.length > 0 && !args[0].startsWith("-")) {
            cmd = args[0];
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        switch (cmd) {
            case "serve":
                return serve(args);
            case "version":
                System.out.println(versionLine());
                return 0;
            case "help":
                System.out.print(USAGE);
                return 0;
            default:
                System.err.print("lab-target-hikari: unknown command \"" + cmd + "\"\n" + USAGE);
                return 2;
        }
    }

    static int serve(String[] args) {
        Config cfg;
        try {
            cfg = Config.parse(args, System::getenv);
        } catch (Config.UsageException e) {
            System.err.println("lab-target-hikari serve: " + e.getMessage());
            return 2;
        }
        Log.instance = cfg.instanceId;
        // Global knobs, set before the first pool or server exists.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("com.zaxxer.hikari.housekeeping.periodMs", Long.toString(cfg.healthCheckPeriodMs));
        System.setProperty("sun.net.httpserver.nodelay", "true");
        System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
        if (!cfg.upstreamUrl.isEmpty()) {
            Log.warn("--upstream-url is ignored: java-hikari has no /upload");
        }
        DbUrl url = DbUrl.parse(cfg.databaseUrl);
        warnClamps(cfg);

        InetSocketAddress addr;
        try {
            addr = listenAddress(cfg.listen);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("lab-target-hikari serve: invalid --listen " + cfg.listen + ": " + e.getMessage());
            return 2;
        }
        Metrics metrics = new Metrics();
        Pools.Strategy strategy = Strategies.create(new Box.Deps(cfg, url, metrics));
        metrics.pools = strategy::stats;
        Readiness readiness = new Readiness(cfg, url, metrics);
        Server srv = new Server(cfg, url.dialect(), strategy, metrics, readiness);

        HttpServer http;
        try {
            http = HttpServer.create(addr, 1024);
        } catch (IOException e) {
            strategy.close();
            System.err.println("lab-target-hikari serve: cannot listen on --listen " + cfg.listen + ": " + e.getMessage());
            return 1;
        }
        // One thread per in-flight request, no cap (like the Go target's goroutines): a
        // fixed pool would queue /metrics and /ready behind requests waiting for a connection.
        AtomicInteger n = new AtomicInteger();
        ExecutorService exec = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(null, r, "http-" + n.incrementAndGet(), 512 << 10);
            t.setDaemon(true);
            return t;
        });
        http.setExecutor(exec);
        http.createContext("/", srv::dispatch);
        http.start();
        InetSocketAddress bound = http.getAddress();
        String host = bound.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        // The worker reads this line to learn the port when --listen ends in :0.
        System.out.println("listening http://" + host + ":" + bound.getPort());
        System.out.flush();
        Log.info("starting", "strategy", cfg.strategy, "listen", host + ":" + bound.getPort(), "maxConns", cfg.maxConns,
                "minConns", cfg.minConns, "acquireTimeoutMs", cfg.acquireTimeoutMs, "applicationName", cfg.appName,
                "db", url.dialect().name().toLowerCase(java.util.Locale.ROOT));

        Thread starter = new Thread(() -> readiness.run(strategy::start), "readiness");
        starter.setDaemon(true);
        starter.start();

        CountDownLatch stop = new CountDownLatch(1);
        for (String sig : new String[] {"TERM", "INT"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(sig), s -> stop.countDown());
            } catch (IllegalArgumentException e) {
                Log.warn("cannot handle signal", "signal", sig, "err", e.getMessage());
            }
        }
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Log.info("signal received, shutting down");
        readiness.stop();
        starter.interrupt();
        // HttpServer.stop closes the listener at once, but on JDK 17 it then always sleeps the
        // whole delay (JDK-8304065), so it runs on its own thread while this one waits only as
        // long as requests are actually in flight (at most --shutdown-timeout).
        int delay = (int) Math.min(Integer.MAX_VALUE, (cfg.shutdownTimeoutMs + 999) / 1000);
        Thread stopper = new Thread(() -> http.stop(delay), "http-stop");
        stopper.setDaemon(true);
        stopper.start();
        long until = System.nanoTime() + cfg.shutdownTimeoutMs * 1_000_000L;
        try {
            Thread.sleep(20); // let the listener close before counting
            while (srv.inFlight() > 0 && System.nanoTime() - until < 0) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (srv.inFlight() > 0) {
            Log.warn("in-flight requests cut off at shutdown", "count", srv.inFlight());
        }
        exec.shutdownNow();
        strategy.close();
        Log.info("stopped");
        return 0;
    }

    static InetSocketAddress listenAddress(String listen) throws IOException {
        int c = listen.lastIndexOf(':');
        if (c < 0) {
            throw new IllegalArgumentException("want HOST:PORT");
        }
        String host = listen.substring(0, c);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(listen.substring(c + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range");
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(InetAddress.getByName(host), port);
    }

    /** HikariCP enforces floors on some durations; say so once instead of silently differing. */
    private static void warnClamps(Config cfg) {
        boolean idleUsed = cfg.strategy.equals("elastic") || cfg.strategy.equals("partitioned")
                || cfg.strategy.equals("borrowing");
        if (idleUsed && cfg.idleTimeoutMs > 0 && cfg.idleTimeoutMs < Box.HIKARI_MIN_IDLE_TIMEOUT_MS) {
            Log.warn("--idle-timeout raised to HikariCP's minimum idleTimeout", "requestedMs", cfg.idleTimeoutMs,
                    "usedMs", Box.HIKARI_MIN_IDLE_TIMEOUT_MS);
        }
        if (cfg.maxLifetimeMs > 0 && cfg.maxLifetimeMs < Box.HIKARI_MIN_LIFETIME_MS) {
            Log.warn("--max-lifetime raised to HikariCP's minimum maxLifetime", "requestedMs", cfg.maxLifetimeMs,
                    "usedMs", Box.HIKARI_MIN_LIFETIME_MS);
        }
        if (cfg.strategy.equals("prewarm") && cfg.keepaliveMs > 0 && cfg.keepaliveMs < Box.HIKARI_MIN_LIFETIME_MS) {
            Log.warn("--keepalive raised to HikariCP's minimum keepaliveTime", "requestedMs", cfg.keepaliveMs,
                    "usedMs", Box.HIKARI_MIN_LIFETIME_MS);
        }
    }
}
