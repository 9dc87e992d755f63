import { redactUrl, type PinnedHost } from '@poolbench/contracts/net';
import { RunError } from '../runs/run-error';
import { pinnedFetch, ProbeRedirectError } from './pinned-fetch';
import { waitReady } from './wait-ready';

/**
 * URL targets are not started by us: an optional apply hook receives the pool config (the team's
 * service applies it and answers 2xx), then the readiness path must answer 2xx. Both go to the
 * run's pinned addresses and follow no redirect.
 */
export async function prepareUrlTarget(opts: {
  baseUrls: string[];
  applyHookUrl: string | null;
  readinessPath: string | null;
  poolConfig: unknown;
  headers: Record<string, string>;
  readyTimeoutMs: number;
  signal: AbortSignal;
  pins?: PinnedHost[];
}): Promise<void> {
  const pins = opts.pins ?? [];
  if (opts.applyHookUrl) {
    const hook = redactUrl(opts.applyHookUrl);
    let res: { status: number; text: string };
    try {
      res = await pinnedFetch(opts.applyHookUrl, pins, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: JSON.stringify({ poolConfig: opts.poolConfig }),
        signal: opts.signal,
        timeoutMs: 30_000,
      });
    } catch (err) {
      if (err instanceof ProbeRedirectError)
        throw new RunError('apply_hook_failed', `apply hook failed: ${err.message}`);
      throw new RunError(
        'apply_hook_failed',
        `apply hook ${hook} did not answer: ${(err as Error).message}`,
      );
    }
    if (res.status < 200 || res.status >= 300) {
      throw new RunError(
        'apply_hook_failed',
        `apply hook ${hook} answered HTTP ${res.status}: ${res.text}`,
      );
    }
  }
  if (opts.readinessPath) {
    await Promise.all(
      opts.baseUrls.map((u) =>
        waitReady(new URL(opts.readinessPath!, u).toString(), {
          timeoutMs: opts.readyTimeoutMs,
          signal: opts.signal,
          what: `target ${redactUrl(u)}`,
          headers: opts.headers,
          pins,
        }),
      ),
    );
  }
}
