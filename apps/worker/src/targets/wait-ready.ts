import { redactUrl, type PinnedHost } from '@poolbench/contracts/net';
import { RunError } from '../runs/run-error';
import type { ManagedChild } from './child';
import { pinnedFetch, ProbeRedirectError } from './pinned-fetch';

/**
 * Polls a readiness URL until 2xx; fails early when the process exits, the run is aborted, or
 * the URL redirects (a redirect is never followed: its target was not checked, and the secret
 * headers must not travel there).
 */
export async function waitReady(
  url: string,
  opts: {
    timeoutMs: number;
    signal: AbortSignal;
    child?: ManagedChild;
    what: string;
    headers?: Record<string, string>;
    pins?: PinnedHost[];
  },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let exited = false;
  void opts.child?.exited.then(() => {
    exited = true;
  });
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (opts.signal.aborted)
      throw new RunError('canceled', `${opts.what}: aborted while waiting for readiness`);
    if (exited)
      throw new RunError(
        'target_exited',
        `${opts.what} exited before it was ready: ${opts.child?.tail() || 'no output'}`,
      );
    try {
      const res = await pinnedFetch(url, opts.pins ?? [], {
        timeoutMs: 2000,
        headers: opts.headers,
        signal: opts.signal,
      });
      if (res.status >= 200 && res.status < 300) return;
      last = `HTTP ${res.status} ${res.text}`;
    } catch (err) {
      if (err instanceof ProbeRedirectError)
        throw new RunError(
          'target_not_ready',
          `${opts.what} readiness check failed: ${err.message}`,
        );
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new RunError(
    'target_not_ready',
    `${opts.what} was not ready within ${Math.round(opts.timeoutMs / 1000)} s (${redactUrl(url)}: ${last})`,
  );
}
