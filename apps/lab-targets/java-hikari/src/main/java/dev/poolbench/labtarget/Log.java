package dev.poolbench.labtarget;

import java.time.Instant;

/** Concise key=value lines on stderr, like the Go target's slog text handler. */
final class Log {
    static volatile String instance = "0";

    private Log() {
    }

    static void info(String msg, Object... kv) {
        write("INFO", msg, kv);
    }

    static void warn(String msg, Object... kv) {
        write("WARN", msg, kv);
    }

    static void error(String msg, Object... kv) {
        write("ERROR", msg, kv);
    }

    private static void write(String level, String msg, Object... kv) {
        StringBuilder b = new StringBuilder(128);
        b.append("time=").append(Instant.now()).append(" level=").append(level).append(" msg=");
        quote(b, msg);
        b.append(" instance=").append(instance);
        for (int i = 0; i + 1 < kv.length; i += 2) {
            b.append(' ').append(kv[i]).append('=');
            quote(b, String.valueOf(kv[i + 1]));
        }
        System.err.println(b);
    }

    private static void quote(StringBuilder b, String s) {
        if (!s.isEmpty() && s.chars().noneMatch(c -> c <= ' ' || c == '"' || c == '=')) {
            b.append(s);
        } else {
            b.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
    }

    /** At most one line a second, with the number suppressed meanwhile (error storms). */
    static final class RateLimited {
        private long last;
        private int suppressed;

        synchronized void warn(String msg, Object... kv) {
            long now = System.nanoTime();
            if (last != 0 && now - last < 1_000_000_000L) {
                suppressed++;
                return;
            }
            Object[] all = java.util.Arrays.copyOf(kv, kv.length + 2);
            all[kv.length] = "suppressed";
            all[kv.length + 1] = suppressed;
            Log.warn(msg, all);
            last = now;
            suppressed = 0;
        }
    }
}
