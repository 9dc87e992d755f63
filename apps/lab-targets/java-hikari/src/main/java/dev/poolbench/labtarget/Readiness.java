package dev.poolbench.labtarget;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether start-up work is done and the database answers. The probe opens its own
 * short-lived connection (application_name "<app>:probe"), never a pool connection.
 */
final class Readiness {
    private static final long RECHECK_EVERY_NS = 5_000_000_000L;
    private static final String REASON_STARTING = "start-up work in progress";

    private final DbUrl url;
    private final Config cfg;
    private final Metrics metrics;
    private final ReentrantLock probing = new ReentrantLock();
    private volatile boolean stopped;

    private boolean started;
    private boolean ready;
    private String reason = "starting";
    private long checkedAt;

    Readiness(Config cfg, DbUrl url, Metrics metrics) {
        this.cfg = cfg;
        this.url = url;
        this.metrics = metrics;
    }

    private void probe() throws Exception {
        Properties p = url.dialect().driverProps(url, cfg.appName + ":probe",
                Math.min(cfg.connectTimeoutMs > 0 ? cfg.connectTimeoutMs : 5_000, 5_000));
        Driver d = (Driver) Class.forName(url.dialect().driverClass).getDeclaredConstructor().newInstance();
        try (Connection c = d.connect(url.jdbcUrl(), p)) {
            if (c == null) {
                throw new IllegalStateException("driver refused the URL");
            }
            try (Statement st = c.createStatement()) {
                st.setQueryTimeout(5);
                st.execute("SELECT 1");
            }
        }
    }

    private void set(boolean ok, String why) {
        boolean changed;
        synchronized (this) {
            changed = ready != ok || !reason.equals(why);
            ready = ok;
            reason = why;
            checkedAt = System.nanoTime();
        }
        metrics.ready = ok;
        if (changed) {
            if (ok) {
                Log.info("ready");
            } else if (why.equals(REASON_STARTING)) {
                Log.info("start-up work in progress");
            } else {
                Log.warn("not ready", "reason", why);
            }
        }
    }

    /** Start-up work that must finish before ready; retried until it succeeds. */
    interface Startup {
        void run(long deadlineNs) throws Exception;
    }

    /** Retries probe + start-up with backoff until both succeed (runs on its own thread). */
    void run(Startup startup) {
        long backoff = 200;
        while (!stopped) {
            Exception err = null;
            try {
                probe();
            } catch (Exception e) {
                err = e;
                set(false, "database unreachable: " + message(e));
            }
            if (err == null) {
                set(false, REASON_STARTING);
                try {
                    startup.run(System.nanoTime() + 60_000_000_000L);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    err = e;
                    set(false, "start-up work failed: " + message(e));
                }
            }
            if (err == null) {
                synchronized (this) {
                    started = true;
                }
                set(true, "");
                return;
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(backoff * 2, 2_000);
        }
    }

    void stop() {
        stopped = true;
    }

    record State(boolean ready, String reason) {
    }

    /** Answers /ready; once started, re-probes at most every 5 s (one probe at a time). */
    State check() {
        boolean st;
        boolean stale;
        synchronized (this) {
            st = started;
            stale = System.nanoTime() - checkedAt > RECHECK_EVERY_NS;
            if (!st || !stale) {
                return new State(ready, reason);
            }
        }
        if (!probing.tryLock()) {
            synchronized (this) {
                return new State(ready, reason);
            }
        }
        try {
            probe();
            set(true, "");
        } catch (Exception e) {
            set(false, "database unreachable: " + message(e));
        } finally {
            probing.unlock();
        }
        synchronized (this) {
            return new State(ready, reason);
        }
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isEmpty() ? e.getClass().getSimpleName() : m;
    }
}
