package dev.poolbench.labtarget;

import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A counting semaphore with a resizable limit and two FIFO queues; a freed slot always goes
 * to the oldest high-priority waiter first. It sits in front of a HikariCP pool whose
 * maximumPoolSize is never below the gate's limit, so the gate, not HikariCP, decides who
 * waits and in which order (priority, and adaptive's limit).
 */
final class Gate {
    enum Result { IMMEDIATE, WAITED, TIMEOUT }

    private static final class Waiter {
        final CountDownLatch latch = new CountDownLatch(1);
        final long since = System.nanoTime();
        boolean granted;
    }

    private int limit;
    private int inUse;
    private int peakInUse;
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Waiter>[] queues = new ArrayDeque[] {new ArrayDeque<Waiter>(), new ArrayDeque<Waiter>()};

    Gate(int limit) {
        this.limit = limit;
    }

    /** Takes a slot, waiting until deadlineNs (System.nanoTime) at the latest. */
    Result acquire(boolean high, long deadlineNs) throws InterruptedException {
        Waiter w;
        int q = high ? 0 : 1;
        synchronized (this) {
            if (inUse < limit && queues[0].isEmpty() && queues[1].isEmpty()) {
                take();
                return Result.IMMEDIATE;
            }
            w = new Waiter();
            queues[q].addLast(w);
        }
        boolean got = false;
        try {
            long waitNs = deadlineNs - System.nanoTime();
            got = waitNs > 0 && w.latch.await(waitNs, TimeUnit.NANOSECONDS);
        } finally {
            if (!got) {
                synchronized (this) {
                    if (!w.granted) {
                        queues[q].remove(w);
                    } else {
                        got = true; // granted while giving up: keep it
                    }
                }
            }
        }
        return got ? Result.WAITED : Result.TIMEOUT;
    }

    private void take() {
        inUse++;
        peakInUse = Math.max(peakInUse, inUse);
    }

    synchronized void release() {
        inUse--;
        dispatch();
    }

    /** Grants free slots to waiters, high priority first. Caller holds the monitor. */
    private void dispatch() {
        while (inUse < limit) {
            ArrayDeque<Waiter> q = !queues[0].isEmpty() ? queues[0] : queues[1];
            Waiter w = q.pollFirst();
            if (w == null) {
                return;
            }
            w.granted = true;
            take();
            w.latch.countDown();
        }
    }

    synchronized void setLimit(int n) {
        limit = n;
        dispatch();
    }

    synchronized int limit() {
        return limit;
    }

    synchronized int waiting() {
        return queues[0].size() + queues[1].size();
    }

    record Snapshot(int limit, int inUse, int peakInUse, int waiting, long waitingForNs) {
    }

    /** Reads the state; with resetPeak it starts a new peak-in-use window. */
    synchronized Snapshot snapshot(boolean resetPeak) {
        long now = System.nanoTime();
        long waitingFor = 0;
        int waiting = 0;
        for (ArrayDeque<Waiter> q : queues) {
            for (Waiter w : q) {
                waiting++;
                waitingFor += now - w.since;
            }
        }
        Snapshot s = new Snapshot(limit, inUse, peakInUse, waiting, waitingFor);
        if (resetPeak) {
            peakInUse = inUse;
        }
        return s;
    }
}
