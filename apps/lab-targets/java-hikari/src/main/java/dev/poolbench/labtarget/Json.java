package dev.poolbench.labtarget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for the lab target (no library: start-up stays fast): writing its answers,
 * and reading a request body (POST /login).
 */
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

    /**
     * Parses one JSON text (RFC 8259, as strict as JavaScript's JSON.parse): objects become
     * LinkedHashMaps (a repeated key keeps its last value), arrays Lists, numbers Doubles.
     *
     * @throws IllegalArgumentException when text is not exactly one JSON value
     */
    static Object parse(String text) {
        Parser p = new Parser(text);
        p.ws();
        Object v = p.value(0);
        p.ws();
        if (p.i != text.length()) {
            throw p.bad("trailing data");
        }
        return v;
    }

    private static final class Parser {
        private static final int MAX_DEPTH = 64;
        private final String s;
        int i;

        Parser(String s) {
            this.s = s;
        }

        IllegalArgumentException bad(String what) {
            return new IllegalArgumentException("invalid JSON at " + i + ": " + what);
        }

        void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                i++;
            }
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw bad("nested too deeply");
            }
            if (i >= s.length()) {
                throw bad("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{' -> {
                    return object(depth);
                }
                case '[' -> {
                    return array(depth);
                }
                case '"' -> {
                    return string();
                }
                case 't' -> {
                    return literal("true", Boolean.TRUE);
                }
                case 'f' -> {
                    return literal("false", Boolean.FALSE);
                }
                case 'n' -> {
                    return literal("null", null);
                }
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw bad("unexpected '" + c + "'");
                }
            }
        }

        private Object literal(String word, Object v) {
            if (!s.startsWith(word, i)) {
                throw bad("expected " + word);
            }
            i += word.length();
            return v;
        }

        private Map<String, Object> object(int depth) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (empty('}')) {
                return m;
            }
            do {
                ws();
                if (i >= s.length() || s.charAt(i) != '"') {
                    throw bad("expected a key");
                }
                String k = string();
                ws();
                if (i >= s.length() || s.charAt(i) != ':') {
                    throw bad("expected ':'");
                }
                i++;
                ws();
                m.put(k, value(depth + 1));
            } while (!closed('}'));
            return m;
        }

        private List<Object> array(int depth) {
            List<Object> l = new ArrayList<>();
            if (empty(']')) {
                return l;
            }
            do {
                ws();
                l.add(value(depth + 1));
            } while (!closed(']'));
            return l;
        }

        /** Past an opening bracket: true when the container is empty (its closing one read too). */
        private boolean empty(char close) {
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == close) {
                i++;
                return true;
            }
            return false;
        }

        /** After an item: true at the container's closing bracket, else past the comma before the next. */
        private boolean closed(char close) {
            ws();
            if (i >= s.length()) {
                throw bad("unexpected end");
            }
            char c = s.charAt(i++);
            if (c == close) {
                return true;
            }
            if (c != ',') {
                throw bad("expected ',' or '" + close + "'");
            }
            return false;
        }

        private String string() {
            i++; // opening quote
            StringBuilder b = new StringBuilder();
            for (;;) {
                if (i >= s.length()) {
                    throw bad("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    throw bad("control character in a string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw bad("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw bad("short \\u escape");
                        }
                        int cp = 0;
                        for (int k = 0; k < 4; k++) {
                            int d = hexDigit(s.charAt(i++));
                            if (d < 0) {
                                throw bad("bad \\u escape");
                            }
                            cp = cp * 16 + d;
                        }
                        b.append((char) cp);
                    }
                    default -> throw bad("bad escape \\" + e);
                }
            }
        }

        /** An ASCII hex digit's value, else -1 (Character.digit would take other scripts' digits). */
        private static int hexDigit(char c) {
            if (c >= '0' && c <= '9') {
                return c - '0';
            }
            if (c >= 'a' && c <= 'f') {
                return c - 'a' + 10;
            }
            if (c >= 'A' && c <= 'F') {
                return c - 'A' + 10;
            }
            return -1;
        }

        private Double number() {
            int start = i;
            if (s.charAt(i) == '-') {
                i++;
            }
            if (i < s.length() && s.charAt(i) == '0') {
                i++;
            } else if (!digits()) {
                throw bad("expected a digit");
            }
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                if (!digits()) {
                    throw bad("expected a digit after '.'");
                }
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                    i++;
                }
                if (!digits()) {
                    throw bad("expected an exponent");
                }
            }
            return Double.valueOf(s.substring(start, i));
        }

        private boolean digits() {
            int start = i;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            return i > start;
        }
    }
}
