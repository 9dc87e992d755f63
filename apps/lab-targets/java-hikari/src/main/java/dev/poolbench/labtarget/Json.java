package dev.poolbench.labtarget;

import java.util.Collection;
import java.util.Map;

/** Just enough JSON writing for the lab target's answers (no library: start-up stays fast). */
final class Json {
    private Json() {
    }

    /** An object from alternating keys and values; values may be raw JSON (Raw), numbers, booleans, strings, lists. */
    static String obj(Object... kv) {
        StringBuilder b = new StringBuilder(64).append('{');
        for (int i = 0; i < kv.length; i += 2) {
            if (i > 0) {
                b.append(',');
            }
            str(b, (String) kv[i]);
            b.append(':');
            value(b, kv[i + 1]);
        }
        return b.append('}').toString();
    }

    /** Already-encoded JSON. */
    record Raw(String json) {
    }

    static void value(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Raw r) {
            b.append(r.json());
        } else if (v instanceof String s) {
            str(b, s);
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short) {
            b.append(v);
        } else if (v instanceof Number n) {
            double d = n.doubleValue();
            b.append(Double.isFinite(d) ? Metrics.num(d) : "null");
        } else if (v instanceof Collection<?> c) {
            b.append('[');
            boolean first = true;
            for (Object o : c) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                value(b, o);
            }
            b.append(']');
        } else if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                str(b, String.valueOf(e.getKey()));
                b.append(':');
                value(b, e.getValue());
            }
            b.append('}');
        } else {
            str(b, v.toString());
        }
    }

    static void str(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '<' -> b.append("\\u003c");
                case '>' -> b.append("\\u003e");
                case '&' -> b.append("\\u0026");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
