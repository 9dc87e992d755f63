package dev.poolbench.labtarget;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The seven seed-003 strategies, each mapped onto real HikariCP pools (see README.md). */
final class Strategies {
    private Strategies() {
    }

    /** Builds the strategy; opens no connection synchronously. */
    static Pools.Strategy create(Box.Deps d) {
        Config c = d.cfg();
        return switch (c.strategy) {
            case "fixed", "elastic", "prewarm" -> new Single(d, c.strategy);
            case "priority" -> new Gated(d, "priority", c.maxConns, null);
            case "adaptive" -> new Adaptive(d);
            case "partitioned" -> new Partitioned(d);
            case "borrowing" -> new Borrowing(d);
            default -> throw new IllegalArgumentException("strategy " + c.strategy + " is not supported");
        };
    }

    static ScheduledExecutorService daemonScheduler(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * One pool with a sizing policy:
     * fixed: minimumIdle = maximumPoolSize = max (HikariCP's fixed-size pool);
     * elastic: minimumIdle = min, maximumPoolSize = max, idleTimeout, maxLifetime;
     * prewarm: minimumIdle = maximumPoolSize = max, keepaliveTime, and ready only once HikariCP
     * has opened all max connections.
     */
    static final class Single extends OnePool {
        Single(Box.Deps d, String name) {
            super(name, new Box(d, "main", hc -> {
                Config c = d.cfg();
                switch (name) {
                    case "fixed" -> hc.setMinimumIdle(c.maxConns);
                    case "elastic" -> hc.setMinimumIdle(c.minConns);
                    case "prewarm" -> {
                        hc.setMinimumIdle(c.maxConns);
                        hc.setKeepaliveTime(c.keepaliveMs <= 0 ? 0 : Math.max(c.keepaliveMs, Box.HIKARI_MIN_LIFETIME_MS));
                    }
                    default -> throw new IllegalArgumentException(name);
                }
            }));
        }

        @Override
        public void start(long deadlineNs) throws Exception {
            if (name().equals("prewarm")) {
                b.waitFilled(b.deps.cfg().maxConns, deadlineNs);
            }
        }

        @Override
        public Pools.Lease acquire(Pools.Req r) throws Exception {
            return b.lease(b.acquire(r), -1, null);
        }
    }

    /** A strategy over one HikariCP pool: its stats and its closing are that pool's. */
    abstract static class OnePool implements Pools.Strategy {
        private final String name;
        final Box b;

        OnePool(String name, Box b) {
            this.name = name;
            this.b = b;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public List<Metrics.PoolStats> stats() {
            return List.of(b.stats());
        }

        @Override
        public void close() {
            b.close();
        }
    }

    /** One pool of max per shard (label shard-N); a hot shard exhausts only its own pool. */
    static final class Partitioned implements Pools.Strategy {
        final List<Box> shards = new ArrayList<>();

        Partitioned(Box.Deps d) {
            for (int i = 0; i < d.cfg().shards; i++) {
                shards.add(new Box(d, "shard-" + i, hc -> hc.setMinimumIdle(d.cfg().minConns)));
            }
        }

        @Override
        public String name() {
            return "partitioned";
        }

        @Override
        public int shards() {
            return shards.size();
        }

        @Override
        public Pools.Lease acquire(Pools.Req r) throws Exception {
            if (r.shard < 0 || r.shard >= shards.size()) {
                throw new IllegalArgumentException("shard " + r.shard + " out of range [0," + shards.size() + ")");
            }
            Box b = shards.get(r.shard);
            return b.lease(b.acquire(r), r.shard, null);
        }

        @Override
        public List<Metrics.PoolStats> stats() {
            List<Metrics.PoolStats> out = new ArrayList<>();
            for (Box b : shards) {
                out.add(b.stats());
            }
            return out;
        }

        @Override
        public void close() {
            shards.forEach(Box::close);
        }
    }

    /**
     * A HikariCP pool behind the priority gate. priority: limit = max, pool fixed at max.
     * Adaptive extends it and moves the limit.
     */
    static class Gated extends OnePool {
        final Gate g;
        /** Gate waits finished since the adaptive controller last looked. */
        final AtomicLong waitSumNs = new AtomicLong();
        final AtomicLong waitN = new AtomicLong();

        Gated(Box.Deps d, String name, int limit, java.util.function.Consumer<com.zaxxer.hikari.HikariConfig> tune) {
            super(name, new Box(d, "main", tune != null ? tune : hc -> hc.setMinimumIdle(d.cfg().maxConns)));
            g = new Gate(limit);
            b.limit = g::limit;
            b.gateWaiting = g::waiting;
        }

        @Override
        public Pools.Lease acquire(Pools.Req r) throws Exception {
            long start = System.nanoTime();
            long acq = b.deps.cfg().acquireTimeoutMs;
            long acqDeadline = acq > 0 ? start + acq * 1_000_000L : Long.MAX_VALUE;
            boolean acquireBound = acq > 0 && acqDeadline - r.deadlineNs <= 0;
            Gate.Result res = g.acquire(r.high, acquireBound ? acqDeadline : r.deadlineNs);
            waitSumNs.addAndGet(System.nanoTime() - start);
            waitN.incrementAndGet();
            if (res != Gate.Result.IMMEDIATE) {
                b.empty.increment();
            }
            if (res == Gate.Result.TIMEOUT) {
                b.canceled.increment();
                throw b.timeout(start, acquireBound);
            }
            Connection c;
            try {
                c = b.acquire(r, start, res == Gate.Result.IMMEDIATE);
            } catch (Exception e) {
                g.release();
                throw e;
            }
            b.deps.metrics().priorityWait.with(r.high ? "high" : "normal").observe((System.nanoTime() - start) / 1e9);
            return b.lease(c, -1, g::release);
        }
    }

    /**
     * Seed 003's hybrid adaptive pool: the gate's limit (and HikariCP's maximumPoolSize and
     * minimumIdle, via HikariConfigMXBean) starts at --initial-conns, opened before ready; it
     * grows by --grow-step when the mean acquire wait over a --check-interval exceeds
     * --grow-wait-threshold and shrinks by --shrink-step after --shrink-idle with spare
     * capacity (evicting the surplus idle connections), within [max(min,1), max].
     */
    static final class Adaptive extends Gated {
        private final ScheduledExecutorService loop = daemonScheduler("adaptive-controller");
        private long spareFrom; // start of the current stretch with spare capacity (0 = none)

        Adaptive(Box.Deps d) {
            // Built at maximumPoolSize = max so HikariCP sizes its connection-adder queue for
            // the largest limit, then set to the initial limit before the first housekeeping run.
            super(d, "adaptive", d.cfg().initialConns, hc -> hc.setMinimumIdle(d.cfg().maxConns));
            setHikariSize(d.cfg().initialConns);
            long every = d.cfg().checkIntervalMs;
            loop.scheduleAtFixedRate(this::checkSafely, every, every, TimeUnit.MILLISECONDS);
        }

        private void setHikariSize(int n) {
            var mx = b.ds.getHikariConfigMXBean();
            if (n >= mx.getMaximumPoolSize()) {
                mx.setMaximumPoolSize(n);
                mx.setMinimumIdle(n);
            } else {
                mx.setMinimumIdle(n);
                mx.setMaximumPoolSize(n);
            }
        }

        @Override
        public void start(long deadlineNs) throws Exception {
            b.waitFilled(g.limit(), deadlineNs);
        }

        private void checkSafely() {
            try {
                check(System.nanoTime());
            } catch (RuntimeException e) {
                Log.warn("adaptive controller failed", "err", e.toString());
            }
        }

        private void check(long now) {
            Config cfg = b.deps.cfg();
            Gate.Snapshot s = g.snapshot(true);
            // Requests still queued count with the time waited so far, so a stuck pool still grows.
            long n = waitN.getAndSet(0) + s.waiting();
            long sum = waitSumNs.getAndSet(0) + s.waitingForNs();
            int lower = Math.max(cfg.minConns, 1);
            if (n > 0 && sum / n > cfg.growWaitThresholdMs * 1_000_000L && s.limit() < cfg.maxConns) {
                resize(s.limit(), Math.min(s.limit() + cfg.growStep, cfg.maxConns), "up");
                spareFrom = 0;
            } else if (s.peakInUse() < s.limit() && s.waiting() == 0) {
                if (spareFrom == 0) {
                    spareFrom = now;
                } else if (now - spareFrom >= cfg.shrinkIdleMs * 1_000_000L && s.limit() > lower) {
                    resize(s.limit(), Math.max(s.limit() - cfg.shrinkStep, lower), "down");
                    spareFrom = now;
                }
            } else {
                spareFrom = 0;
            }
        }

        private void resize(int from, int to, String direction) {
            if (direction.equals("up")) {
                setHikariSize(to);
                g.setLimit(to);
            } else {
                g.setLimit(to);
                setHikariSize(to);
                trim(to);
            }
            b.deps.metrics().resizes.with("main", direction).increment();
            Log.info("adaptive pool resized", "from", from, "to", to);
        }

        /** Evicts idle connections until HikariCP holds at most limit (HikariDataSource.evictConnection). */
        private void trim(int limit) {
            int excess = b.pool.getTotalConnections() - limit;
            while (excess > 0) {
                Connection c = b.tryIdle();
                if (c == null) {
                    return; // the rest are in use: HikariCP retires them above max on return
                }
                b.ds.evictConnection(c);
                excess--;
            }
        }

        @Override
        public void close() {
            loop.shutdownNow();
            super.close();
        }
    }

    /**
     * Requests use the primary pool; a background job runs on a secondary pool kept open
     * (minimumIdle = maximumPoolSize = --secondary-max-conns). A request borrows an idle
     * secondary connection only when the primary is exhausted (every connection active and
     * at maximumPoolSize); otherwise, or when the secondary has nothing idle, it waits on the primary.
     */
    static final class Borrowing implements Pools.Strategy {
        final Box primary;
        final Box secondary;
        private final ScheduledExecutorService loop = daemonScheduler("background-job");
        private volatile String lastErr = "";

        Borrowing(Box.Deps d) {
            Config c = d.cfg();
            primary = new Box(d, "primary", hc -> hc.setMinimumIdle(c.minConns));
            secondary = new Box(d, "secondary", hc -> {
                hc.setMaximumPoolSize(c.secondaryMaxConns);
                hc.setMinimumIdle(c.secondaryMaxConns);
            });
            loop.scheduleAtFixedRate(this::job, c.backgroundIntervalMs, c.backgroundIntervalMs, TimeUnit.MILLISECONDS);
        }

        @Override
        public String name() {
            return "borrowing";
        }

        @Override
        public Pools.Lease acquire(Pools.Req r) throws Exception {
            var p = primary.pool;
            boolean exhausted = p.getIdleConnections() == 0
                    && p.getActiveConnections() >= primary.ds.getHikariConfigMXBean().getMaximumPoolSize();
            if (exhausted) {
                long start = System.nanoTime();
                Connection c = secondary.tryIdle();
                if (c != null) {
                    secondary.observeWait(start);
                    secondary.deps.metrics().borrows.increment();
                    return secondary.lease(c, -1, null);
                }
            }
            return primary.lease(primary.acquire(r), -1, null);
        }

        private void job() {
            Config c = secondary.deps.cfg();
            String result = "ok";
            long timeout = Math.max(c.backgroundIntervalMs, 1000);
            try (Connection conn = secondary.pool.getConnection(timeout); Statement st = conn.createStatement()) {
                secondary.acquires.increment();
                st.setQueryTimeout((int) Math.max(1, timeout / 1000));
                try (ResultSet rs = st.executeQuery("SELECT count(*), coalesce(sum(hits), 0) FROM "
                        + secondary.deps.url().dialect().table("counters"))) {
                    rs.next();
                }
                lastErr = "";
            } catch (SQLException | RuntimeException e) {
                result = "error";
                String msg = String.valueOf(e.getMessage());
                if (!msg.equals(lastErr)) {
                    Log.warn("background job failed", "err", msg);
                }
                lastErr = msg;
            }
            secondary.deps.metrics().backgroundJobs.with(result).increment();
        }

        @Override
        public List<Metrics.PoolStats> stats() {
            return List.of(primary.stats(), secondary.stats());
        }

        @Override
        public void close() {
            loop.shutdownNow();
            primary.close();
            secondary.close();
        }
    }
}
