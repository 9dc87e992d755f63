package dev.poolbench.labtarget;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The DataSource HikariCP opens its physical connections through. It counts what HikariCP
 * does not expose: connections being opened, opened and closed (HikariCP closes a physical
 * connection with close(), or abort() at shutdown). Everything else is passed through.
 */
final class CountingDataSource implements DataSource {
    private final DataSource inner;
    final AtomicLong constructing = new AtomicLong();
    final AtomicLong created = new AtomicLong();
    final AtomicLong closed = new AtomicLong();

    CountingDataSource(DataSource inner) {
        this.inner = inner;
    }

    @Override
    public Connection getConnection() throws SQLException {
        constructing.incrementAndGet();
        try {
            return wrap(inner.getConnection());
        } finally {
            constructing.decrementAndGet();
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        constructing.incrementAndGet();
        try {
            return wrap(inner.getConnection(username, password));
        } finally {
            constructing.decrementAndGet();
        }
    }

    private Connection wrap(Connection real) {
        created.incrementAndGet();
        AtomicBoolean done = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, m, args) -> {
                    String n = m.getName();
                    if ((n.equals("close") || n.equals("abort")) && done.compareAndSet(false, true)) {
                        closed.incrementAndGet();
                    }
                    if (n.equals("unwrap") && args != null && args.length == 1 && ((Class<?>) args[0]).isInstance(proxy)) {
                        return proxy;
                    }
                    try {
                        return m.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return inner.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        inner.setLogWriter(out);
    }

    private volatile int loginTimeout = 5;

    @Override
    public void setLoginTimeout(int seconds) {
        // Connecting is bounded by the driver's connectTimeout (from --connect-timeout); HikariCP
        // also reads this back as its wait for in-progress connects at shutdown, so keep it short.
        loginTimeout = Math.max(1, Math.min(seconds, 5));
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return inner.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || inner.isWrapperFor(iface);
    }
}
