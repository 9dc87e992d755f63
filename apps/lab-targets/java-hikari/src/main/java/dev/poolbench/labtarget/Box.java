package dev.poolbench.labtarget;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import com.zaxxer.hikari.util.DriverDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * One named HikariCP pool (label main, shard-N, primary, secondary) plus the counters HikariCP
 * does not keep itself. Acquires go through HikariPool.getConnection(timeout) so every wait
 * is bounded by this request's own budget (--acquire-timeout and --request-timeout), timed
 * here for the wait histogram.
 */
final class Box {
    /** Hikari's floor for idleTimeout (shorter values would be replaced by 10 min). */
    static final long HIKARI_MIN_IDLE_TIMEOUT_MS = 10_000;
    /** Hikari's floor for maxLifetime and keepaliveTime (shorter: default / disabled). */
    static final long HIKARI_MIN_LIFETIME_MS = 30_000;
    /** While the pool holds no connection, wait in slices so a failing database answers early. */
    private static final long EMPTY_POOL_SLICE_MS = 500;

    final String label;
    final Deps deps;
    final HikariDataSource ds;
    final HikariPool pool;
    final CountingDataSource counting;

    final LongAdder acquires = new LongAdder();
    final LongAdder empty = new LongAdder();
    final LongAdder canceled = new LongAdder();
    final AtomicInteger inProgress = new AtomicInteger();
    /** Current limit when something in front of the pool sets it (adaptive); null = Hikari's max. */
    volatile IntSupplier limit;
    /** Requests queued in front of the pool (the priority gate); null = none. */
    volatile IntSupplier gateWaiting;

    /** What every strategy needs. */
    record Deps(Config cfg, DbUrl url, Metrics metrics) {
    }

    /**
     * Creates the pool; it opens no connection synchronously (initializationFailTimeout = -1),
     * so a database that is down does not stop the instance. tune sets the strategy's sizing.
     */
    Box(Deps d, String label, Consumer<HikariConfig> tune) {
        this.label = label;
        this.deps = d;
        Config cfg = d.cfg();
        HikariConfig hc = new HikariConfig();
        hc.setPoolName(cfg.appName + ":" + label);
        DriverDataSource driver = new DriverDataSource(d.url().jdbcUrl(), d.url().dialect().driverClass,
                d.url().dialect().driverProps(d.url(), cfg.appName + ":" + label, cfg.connectTimeoutMs), null, null);
        counting = new CountingDataSource(driver);
        hc.setDataSource(counting);
        hc.setMaximumPoolSize(cfg.maxConns);
        hc.setMinimumIdle(0);
        hc.setConnectionTimeout(Math.max(250, cfg.acquireTimeoutMs > 0 ? cfg.acquireTimeoutMs : cfg.requestTimeoutMs));
        hc.setIdleTimeout(hikariIdleTimeout(cfg.idleTimeoutMs));
        hc.setMaxLifetime(hikariLifetime(cfg.maxLifetimeMs));
        hc.setKeepaliveTime(0);
        hc.setInitializationFailTimeout(-1);
        hc.setValidationTimeout(Math.max(250, Math.min(5_000, cfg.connectTimeoutMs > 0 ? cfg.connectTimeoutMs : 5_000)));
        String init = d.url().dialect().initSql(cfg.statementTimeoutMs);
        if (init != null) {
            hc.setConnectionInitSql(init);
        }
        if (tune != null) {
            tune.accept(hc);
        }
        if (hc.getMinimumIdle() >= hc.getMaximumPoolSize()) {
            hc.setIdleTimeout(0); // a fixed-size pool never retires idle connections (HikariCP warns otherwise)
        }
        ds = new HikariDataSource(hc);
        pool = (HikariPool) ds.getHikariPoolMXBean();
    }

    static long hikariIdleTimeout(long ms) {
        return ms <= 0 ? 0 : Math.max(ms, HIKARI_MIN_IDLE_TIMEOUT_MS);
    }

    static long hikariLifetime(long ms) {
        return ms <= 0 ? 0 : Math.max(ms, HIKARI_MIN_LIFETIME_MS);
    }

    /** Acquire for a request that starts waiting now. */
    Connection acquire(Pools.Req r) throws Exception {
        return acquire(r, System.nanoTime(), true);
    }

    /**
     * Waits for a connection within the request's budget, measured from startNs (the gate
     * may already have used part of it). countEmpty: count a wait on an empty pool here.
     */
    Connection acquire(Pools.Req r, long startNs, boolean countEmpty) throws Exception {
        long acqTimeout = deps.cfg().acquireTimeoutMs;
        long acqDeadline = acqTimeout > 0 ? startNs + acqTimeout * 1_000_000L : Long.MAX_VALUE;
        boolean acquireBound = acqTimeout > 0 && acqDeadline - r.deadlineNs <= 0;
        long end = acquireBound ? acqDeadline : r.deadlineNs;
        if (countEmpty && pool.getIdleConnections() == 0) {
            empty.increment();
        }
        inProgress.incrementAndGet();
        try {
            while (true) {
                long remainingMs = Math.max(0, (end - System.nanoTime()) / 1_000_000);
                boolean slice = pool.getTotalConnections() == 0;
                try {
                    Connection c = pool.getConnection(slice ? Math.min(remainingMs, EMPTY_POOL_SLICE_MS) : remainingMs);
                    acquires.increment();
                    observeWait(startNs);
                    return c;
                } catch (SQLTransientConnectionException e) {
                    // HikariCP's timeout; its cause is the last failed connection attempt, if any.
                    if (e.getCause() instanceof SQLException cause) {
                        canceled.increment();
                        throw cause;
                    }
                    if (System.nanoTime() - end < 0 && slice) {
                        continue;
                    }
                    canceled.increment();
                    throw timeout(startNs, acquireBound);
                }
            }
        } finally {
            inProgress.decrementAndGet();
        }
    }

    Exception timeout(long startNs, boolean acquireBound) {
        long waited = (System.nanoTime() - startNs) / 1_000_000;
        if (acquireBound) {
            deps.metrics().acquireTimeouts.with(label).increment();
            return new Pools.AcquireTimeoutException(label, waited);
        }
        return new Pools.RequestTimeoutException("no connection from pool " + label + " within --request-timeout ("
                + waited + "ms)");
    }

    void observeWait(long startNs) {
        deps.metrics().acquireWait.with(label).observe((System.nanoTime() - startNs) / 1e9);
    }

    /** Takes an idle connection without waiting, or returns null. */
    Connection tryIdle() {
        if (pool.getIdleConnections() == 0) {
            return null;
        }
        try {
            Connection c = pool.getConnection(0);
            acquires.increment();
            return c;
        } catch (SQLException e) {
            return null;
        }
    }

    Pools.Lease lease(Connection c, int shard, Runnable after) {
        return new Pools.Lease(c, label, shard, () -> {
            try {
                c.close();
            } catch (SQLException e) {
                Log.warn("returning a connection failed", "pool", label, "err", e.getMessage());
            }
            if (after != null) {
                after.run();
            }
        });
    }

    /** Waits until HikariCP holds at least n connections (prewarm, adaptive start-up). */
    void waitFilled(int n, long deadlineNs) throws Exception {
        while (pool.getTotalConnections() < n) {
            if (System.nanoTime() - deadlineNs >= 0) {
                throw new Exception("pool " + label + " opened " + pool.getTotalConnections() + " of " + n
                        + " connections before the start-up deadline");
            }
            Thread.sleep(10);
        }
    }

    Metrics.PoolStats stats() {
        int idle = pool.getIdleConnections();
        int active = pool.getActiveConnections();
        int total = pool.getTotalConnections();
        IntSupplier l = limit;
        IntSupplier gw = gateWaiting;
        long max = l != null ? l.getAsInt() : ds.getHikariConfigMXBean().getMaximumPoolSize();
        long waiting = pool.getThreadsAwaitingConnection() + (gw != null ? gw.getAsInt() : 0);
        long constructing = counting.constructing.get();
        return new Metrics.PoolStats(label, total + constructing, idle, active, constructing, max, waiting,
                acquires.sum(), empty.sum(), canceled.sum(), counting.created.get(), counting.closed.get());
    }

    void close() {
        ds.close();
    }
}
