package dev.poolbench.labtarget;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The lab's login pair (POST /login, GET /me), the same on every runtime (docs/runtimes.md).
 * Tokens are stateless, so any instance accepts another's:
 * "&lt;userId&gt;.&lt;hex HMAC-SHA256(key "poolbench-lab", message "&lt;userId&gt;")&gt;". The key is
 * public: this is a lab for pooled request flows, not an authentication system.
 */
final class Auth {
    private Auth() {
    }

    static final String TOKEN_KEY = "poolbench-lab";
    /** POST /login reads at most this much body; a larger one is a bad_login. */
    static final int MAX_LOGIN_BODY = 64 << 10;

    // The error answers' messages, the same on every runtime.
    static final String MSG_BAD_LOGIN = "body must be a JSON object with string fields username and password";
    static final String MSG_BAD_CREDENTIALS = "unknown username or wrong password";
    static final String MSG_UNAUTHORIZED = "missing or invalid bearer token";
    static final String MSG_USER_NOT_FOUND = "the token's user does not exist";

    /** A user id without leading zeros (at most 10 digits, checked against int32) and 64 lowercase hex digits. */
    private static final Pattern TOKEN = Pattern.compile("^([1-9][0-9]{0,9})\\.([0-9a-f]{64})$");

    /** The bearer token of user id. */
    static String token(int id) {
        String msg = Integer.toString(id);
        return msg + "." + mac(msg);
    }

    private static String mac(String msg) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(TOKEN_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(m.doFinal(msg.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * The user id of an "Authorization: Bearer &lt;token&gt;" header value (scheme case-insensitive),
     * or -1 when it is missing, malformed or its HMAC does not verify.
     */
    static int bearerUser(String header) {
        if (header == null) {
            return -1;
        }
        String v = header.strip();
        if (v.length() < 7 || !v.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return -1;
        }
        Matcher m = TOKEN.matcher(v.substring(7).strip());
        if (!m.matches()) {
            return -1;
        }
        long id = Long.parseLong(m.group(1));
        if (id > Integer.MAX_VALUE) {
            return -1;
        }
        boolean ok = MessageDigest.isEqual(m.group(2).getBytes(StandardCharsets.US_ASCII),
                mac(m.group(1)).getBytes(StandardCharsets.US_ASCII));
        return ok ? (int) id : -1;
    }

    /** POST /login's credentials. */
    record Login(String username, String password) {
    }

    /**
     * Reads POST /login's body: a JSON object whose username and password are strings (other
     * fields are ignored); null when it is not JSON, not an object, or lacks either string.
     */
    static Login parseLogin(String body) {
        Object v;
        try {
            v = Json.parse(body);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (v instanceof Map<?, ?> m && m.get("username") instanceof String u && m.get("password") instanceof String p) {
            return new Login(u, p);
        }
        return null;
    }

    /** Constant-time equality of two strings (the stored and the given password). */
    static boolean same(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
