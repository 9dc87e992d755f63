package dev.poolbench.labtarget;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A --database-url turned into what JDBC wants: postgres(ql):// becomes jdbc:postgresql://,
 * mysql:// and mariadb:// become jdbc:mariadb://. User and password are URL-decoded and
 * passed as properties, never left in the JDBC URL; the query string is passed through.
 */
record DbUrl(Dialect dialect, String jdbcUrl, String user, String password, String database) {

    static DbUrl parse(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + e.getMessage());
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
        Dialect d = switch (scheme) {
            case "postgres", "postgresql" -> Dialect.POSTGRES;
            case "mysql", "mariadb" -> Dialect.MARIADB;
            default -> throw new IllegalArgumentException(
                    "scheme must be postgres://, postgresql://, mysql:// or mariadb:// (got \"" + scheme + "\")");
        };
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw new IllegalArgumentException("missing host");
        }
        String user = null;
        String password = null;
        String info = u.getRawUserInfo();
        if (info != null) {
            int c = info.indexOf(':');
            user = decode(c >= 0 ? info.substring(0, c) : info);
            password = c >= 0 ? decode(info.substring(c + 1)) : null;
        }
        String db = u.getRawPath() == null ? "" : u.getRawPath().replaceFirst("^/", "");
        db = decode(db);
        int port = u.getPort() > 0 ? u.getPort() : d.defaultPort;
        String host = u.getHost().contains(":") && !u.getHost().startsWith("[") ? "[" + u.getHost() + "]" : u.getHost();
        StringBuilder j = new StringBuilder("jdbc:").append(d.jdbcScheme).append("://").append(host).append(':').append(port)
                .append('/').append(db);
        if (u.getRawQuery() != null && !u.getRawQuery().isEmpty()) {
            j.append('?').append(u.getRawQuery());
        }
        return new DbUrl(d, j.toString(), user, password, db);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
