import { connect } from 'node:net';
import { RunError } from '../runs/run-error';
import type { ManagedChild } from './child';

/** Waits until something accepts TCP on 127.0.0.1:port (a helper we started), or fails with its output. */
export async function waitTcp(
  port: number,
  opts: {
    timeoutMs: number;
    signal: AbortSignal;
    child: ManagedChild;
    what: string;
    host?: string;
  },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let exited = false;
  void opts.child.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (opts.signal.aborted) throw new RunError('canceled', `${opts.what}: aborted while starting`);
    if (exited)
      throw new RunError(
        'target_exited',
        `${opts.what} exited before it listened: ${opts.child.tail() || 'no output'}`,
      );
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect({ host: opts.host ?? '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new RunError(
    'target_not_ready',
    `${opts.what} did not listen on 127.0.0.1:${port} within ${Math.round(opts.timeoutMs / 1000)} s`,
  );
}
