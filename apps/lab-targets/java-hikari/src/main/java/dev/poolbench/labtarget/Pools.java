package dev.poolbench.labtarget;

import java.sql.Connection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** The types every strategy shares: what a request asks for, what it gets, how it fails. */
final class Pools {
    private Pools() {
    }

    /** One request's view of the pool: its deadline (System.nanoTime), priority and shard. */
    static final class Req {
        final long deadlineNs;
        final boolean high;
        final int shard;

        Req(long deadlineNs, boolean high, int shard) {
            this.deadlineNs = deadlineNs;
            this.high = high;
            this.shard = shard;
        }

        long remainingMs() {
            return Math.max(0, (deadlineNs - System.nanoTime()) / 1_000_000);
        }

        boolean expired() {
            return System.nanoTime() - deadlineNs >= 0;
        }
    }

    /** One connection held by a request; release exactly once (extra calls are ignored). */
    static final class Lease {
        final Connection conn;
        final String pool;
        final int shard;
        private final Runnable release;
        private final AtomicBoolean released = new AtomicBoolean();

        Lease(Connection conn, String pool, int shard, Runnable release) {
            this.conn = conn;
            this.pool = pool;
            this.shard = shard;
            this.release = release;
        }

        void release() {
            if (released.compareAndSet(false, true)) {
                release.run();
            }
        }
    }

    /** --acquire-timeout elapsed before a connection was free: 503 pool_acquire_timeout. */
    static final class AcquireTimeoutException extends Exception {
        final String pool;
        final long waitedMs;

        AcquireTimeoutException(String pool, long waitedMs) {
            super("no connection from pool " + pool + " within " + waitedMs + "ms", null, false, false);
            this.pool = pool;
            this.waitedMs = waitedMs;
        }
    }

    /** The request's own deadline (--request-timeout) ended the wait: 504 request_timeout. */
    static final class RequestTimeoutException extends Exception {
        RequestTimeoutException(String msg) {
            super(msg, null, false, false);
        }
    }

    /** A pool strategy. start() is the work before ready; it is retried until it succeeds. */
    interface Strategy {
        String name();

        /** How many shards the strategy splits the table over; 0 for one pool over all of it. */
        default int shards() {
            return 0;
        }

        /** Readies the pools before the first request (filling them where the strategy asks). */
        default void start(long deadlineNs) throws Exception {
        }

        Lease acquire(Req r) throws Exception;

        List<Metrics.PoolStats> stats();

        void close();
    }
}
