package dev.poolbench.labtarget;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The instance's Prometheus metrics, written by hand in text format 0.0.4 with exactly the
 * names and labels of the Go lab target (PoolBench samples them by name).
 */
final class Metrics {
    /** Same buckets as the Go target: 0.25 ms to 60 s. */
    static final double[] LATENCY_BUCKETS = {
        0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60,
    };

    /** A metric family: one value per set of label values, kept under the values joined with \u0000. */
    abstract static class Family<T> {
        final String name;
        final String help;
        final String[] labels;
        final Map<String, T> values = new ConcurrentSkipListMap<>();
        private final Supplier<T> make;

        Family(String name, String help, Supplier<T> make, String... labels) {
            this.name = name;
            this.help = help;
            this.make = make;
            this.labels = labels;
        }

        T with(String... lv) {
            return values.computeIfAbsent(String.join("\u0000", lv), k -> make.get());
        }

        abstract void write(StringBuilder b);
    }

    static final class CounterVec extends Family<LongAdder> {
        CounterVec(String name, String help, String... labels) {
            super(name, help, LongAdder::new, labels);
        }

        @Override
        void write(StringBuilder b) {
            header(b, name, help, "counter");
            for (Map.Entry<String, LongAdder> e : values.entrySet()) {
                b.append(name).append(labelText(labels, e.getKey().split("\u0000", -1), null, null)).append(' ')
                        .append(e.getValue().sum()).append('\n');
            }
        }
    }

    static final class Histogram {
        final LongAdder[] buckets = new LongAdder[LATENCY_BUCKETS.length];
        final LongAdder count = new LongAdder();
        final DoubleAdder sum = new DoubleAdder();

        Histogram() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void observe(double v) {
            for (int i = 0; i < LATENCY_BUCKETS.length; i++) {
                if (v <= LATENCY_BUCKETS[i]) {
                    buckets[i].increment();
                    break;
                }
            }
            count.increment();
            sum.add(v);
        }
    }

    static final class HistogramVec extends Family<Histogram> {
        HistogramVec(String name, String help, String... labels) {
            super(name, help, Histogram::new, labels);
        }

        @Override
        void write(StringBuilder b) {
            header(b, name, help, "histogram");
            for (Map.Entry<String, Histogram> e : values.entrySet()) {
                String[] lv = e.getKey().split("\u0000", -1);
                Histogram h = e.getValue();
                long cum = 0;
                for (int i = 0; i < LATENCY_BUCKETS.length; i++) {
                    cum += h.buckets[i].sum();
                    b.append(name).append("_bucket").append(labelText(labels, lv, "le", num(LATENCY_BUCKETS[i])))
                            .append(' ').append(cum).append('\n');
                }
                long count = h.count.sum();
                b.append(name).append("_bucket").append(labelText(labels, lv, "le", "+Inf")).append(' ').append(count)
                        .append('\n');
                b.append(name).append("_sum").append(labelText(labels, lv, null, null)).append(' ')
                        .append(num(h.sum.sum())).append('\n');
                b.append(name).append("_count").append(labelText(labels, lv, null, null)).append(' ').append(count)
                        .append('\n');
            }
        }
    }

    /** One pool's state at scrape time; counters are cumulative. Also the /ready "pools" entries. */
    record PoolStats(String pool, long total, long idle, long acquired, long constructing, long max, long waiting,
                     long acquireCount, long emptyAcquireCount, long canceledAcquireCount, long created, long closed) {
        String json() {
            return Json.obj("pool", pool, "totalConns", total, "idleConns", idle, "acquiredConns", acquired,
                    "constructingConns", constructing, "maxConns", max, "waitingRequests", waiting,
                    "acquireCount", acquireCount, "emptyAcquireCount", emptyAcquireCount,
                    "canceledAcquireCount", canceledAcquireCount, "connsCreated", created, "connsClosed", closed);
        }
    }

    final HistogramVec acquireWait = new HistogramVec("labtarget_pool_acquire_wait_seconds",
            "Time from asking for a database connection to holding one.", "pool");
    final HistogramVec priorityWait = new HistogramVec("labtarget_priority_acquire_wait_seconds",
            "Acquire wait by request priority (priority and adaptive strategies).", "priority");
    final CounterVec acquireTimeouts = new CounterVec("labtarget_pool_acquire_timeout_total",
            "Acquires that gave up after --acquire-timeout (answered 503).", "pool");
    final CounterVec dbErrors = new CounterVec("labtarget_db_errors_total",
            "Database errors by SQLSTATE (none = not a server error, e.g. refused or timeout).", "sqlstate");
    final LongAdder tooManyClients = new LongAdder();
    final HistogramVec httpDuration = new HistogramVec("labtarget_http_request_duration_seconds",
            "HTTP request duration by route and status code.", "route", "code");
    final LongAdder borrows = new LongAdder();
    final CounterVec resizes = new CounterVec("labtarget_pool_resize_total", "Adaptive pool limit changes.", "pool",
            "direction");
    final CounterVec backgroundJobs = new CounterVec("labtarget_background_jobs_total",
            "Background jobs run on the secondary pool (borrowing).", "result");
    volatile boolean ready;
    volatile Supplier<List<PoolStats>> pools = List::of;

    Metrics() {
        dbErrors.with("53300"); // present from the start, so "0 refused" is visible
    }

    private static final String[][] POOL_GAUGES = {
        {"labtarget_pool_total_conns", "Open connections (idle + acquired + constructing)."},
        {"labtarget_pool_idle_conns", "Idle connections."},
        {"labtarget_pool_acquired_conns", "Connections currently held by requests or jobs."},
        {"labtarget_pool_constructing_conns", "Connections being opened."},
        {"labtarget_pool_max_conns", "Current connection limit of the pool."},
        {"labtarget_pool_waiting_requests", "Acquires in progress (waiting for a connection)."},
    };
    private static final String[][] POOL_COUNTERS = {
        {"labtarget_pool_acquire_total", "Successful connection acquires."},
        {"labtarget_pool_empty_acquire_total", "Acquires that had to wait (no idle connection or limit reached)."},
        {"labtarget_pool_canceled_acquire_total", "Acquires abandoned because the request or timeout ended."},
        {"labtarget_pool_conns_created_total", "Connections opened."},
        {"labtarget_pool_conns_closed_total", "Connections closed."},
    };

    String render() {
        StringBuilder b = new StringBuilder(16 << 10);
        List<PoolStats> stats = new ArrayList<>(pools.get());
        for (int i = 0; i < POOL_GAUGES.length; i++) {
            header(b, POOL_GAUGES[i][0], POOL_GAUGES[i][1], "gauge");
            for (PoolStats s : stats) {
                long v = switch (i) {
                    case 0 -> s.total();
                    case 1 -> s.idle();
                    case 2 -> s.acquired();
                    case 3 -> s.constructing();
                    case 4 -> s.max();
                    default -> s.waiting();
                };
                b.append(POOL_GAUGES[i][0]).append("{pool=\"").append(esc(s.pool())).append("\"} ").append(v).append('\n');
            }
        }
        for (int i = 0; i < POOL_COUNTERS.length; i++) {
            header(b, POOL_COUNTERS[i][0], POOL_COUNTERS[i][1], "counter");
            for (PoolStats s : stats) {
                long v = switch (i) {
                    case 0 -> s.acquireCount();
                    case 1 -> s.emptyAcquireCount();
                    case 2 -> s.canceledAcquireCount();
                    case 3 -> s.created();
                    default -> s.closed();
                };
                b.append(POOL_COUNTERS[i][0]).append("{pool=\"").append(esc(s.pool())).append("\"} ").append(v).append('\n');
            }
        }
        acquireWait.write(b);
        priorityWait.write(b);
        acquireTimeouts.write(b);
        dbErrors.write(b);
        header(b, "labtarget_db_too_many_clients_total",
                "Connection attempts refused with SQLSTATE 53300 (too many clients/connections).", "counter");
        b.append("labtarget_db_too_many_clients_total ").append(tooManyClients.sum()).append('\n');
        httpDuration.write(b);
        header(b, "labtarget_pool_borrow_total",
                "Requests served by the secondary pool because the primary was exhausted (borrowing).", "counter");
        b.append("labtarget_pool_borrow_total ").append(borrows.sum()).append('\n');
        resizes.write(b);
        backgroundJobs.write(b);
        header(b, "labtarget_ready", "1 when /ready answers 200.", "gauge");
        b.append("labtarget_ready ").append(ready ? 1 : 0).append('\n');
        processMetrics(b);
        return b.toString();
    }

    private static final double START_SECONDS = ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0;

    private static void processMetrics(StringBuilder b) {
        double cpu = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            cpu = os.getProcessCpuTime() / 1e9;
        }
        if (cpu >= 0) {
            header(b, "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", "counter");
            b.append("process_cpu_seconds_total ").append(num(cpu)).append('\n');
        }
        long rss = rssBytes();
        if (rss >= 0) {
            header(b, "process_resident_memory_bytes", "Resident memory size in bytes.", "gauge");
            b.append("process_resident_memory_bytes ").append(rss).append('\n');
        }
        header(b, "process_start_time_seconds", "Start time of the process since unix epoch in seconds.", "gauge");
        b.append("process_start_time_seconds ").append(num(START_SECONDS)).append('\n');
        Runtime rt = Runtime.getRuntime();
        header(b, "jvm_memory_heap_used_bytes", "JVM heap in use.", "gauge");
        b.append("jvm_memory_heap_used_bytes ").append(rt.totalMemory() - rt.freeMemory()).append('\n');
        header(b, "jvm_threads_live", "Live JVM threads.", "gauge");
        b.append("jvm_threads_live ").append(ManagementFactory.getThreadMXBean().getThreadCount()).append('\n');
    }

    private static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(f[0]) * 1024;
                }
            }
        } catch (Exception ignored) {
            // not Linux: leave it out
        }
        return -1;
    }

    static void header(StringBuilder b, String name, String help, String type) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    static String labelText(String[] names, String[] values, String extraName, String extraValue) {
        if (names.length == 0 && extraName == null) {
            return "";
        }
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < names.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(names[i]).append("=\"").append(esc(i < values.length ? values[i] : "")).append('"');
        }
        if (extraName != null) {
            if (names.length > 0) {
                b.append(',');
            }
            b.append(extraName).append("=\"").append(extraValue).append('"');
        }
        return b.append('}').toString();
    }

    static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Shortest plain decimal: 0.00025, 1, 60 (never 2.5E-4). */
    static String num(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

}
