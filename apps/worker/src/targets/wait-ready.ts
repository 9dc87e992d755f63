import { RunError } from '../runs/run-error';
import type { ManagedChild } from './child';

/** Polls a readiness URL until 2xx; fails early when the process exits or the run is aborted. */
export async function waitReady(
  url: string,
  opts: { timeoutMs: number; signal: AbortSignal; child?: ManagedChild; what: string; headers?: Record<string, string> },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let exited = false;
  void opts.child?.exited.then(() => {
    exited = true;
  });
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (opts.signal.aborted) throw new RunError('canceled', `${opts.what}: aborted while waiting for readiness`);
    if (exited) throw new RunError('target_exited', `${opts.what} exited before it was ready: ${opts.child?.tail() || 'no output'}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000), headers: opts.headers });
      if (res.ok) return;
      last = `HTTP ${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new RunError('target_not_ready', `${opts.what} was not ready within ${Math.round(opts.timeoutMs / 1000)} s (${url}: ${last})`);
}
