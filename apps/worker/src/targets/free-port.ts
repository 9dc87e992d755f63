import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's ephemeral port range: outgoing connections take their local ports from it. */
export function ephemeralRange(
  text = (() => {
    try {
      return readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    } catch {
      return '';
    }
  })(),
): { low: number; high: number } {
  const [low, high] = text.trim().split(/\s+/).map(Number);
  return low && high && low <= high ? { low, high } : { low: 32768, high: 60999 };
}

/** Where freePort looks: below the ephemeral range, above the privileged and well-known ports. */
export function portWindow(range = ephemeralRange()): { low: number; high: number } {
  const high = Math.min(range.low - 1, 65535);
  return high > 10_000 ? { low: 10_000, high } : { low: range.high + 1, high: 65535 };
}

const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A port that was free a moment ago on loopback, for a process the worker starts next (lab
 * target, nginx, blob store). Taken outside the kernel's ephemeral range: a port the kernel picks
 * for `listen(0)` comes from the same range as every outgoing connection's local port, so on a
 * busy machine (k6, Postgres clients) one of those could take it before the process binds it.
 * Ports this process handed out are not handed out again.
 */
export async function freePort(): Promise<number> {
  const { low, high } = portWindow();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      if (handedOut.size > 4096) handedOut.delete(handedOut.values().next().value!);
      return port;
    }
  }
  throw new Error(`no free port found in ${low}..${high}`);
}
