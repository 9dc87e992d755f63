import { RunError } from '../runs/run-error';
import { waitReady } from './wait-ready';

/**
 * URL targets are not started by us: an optional apply hook receives the pool config (the team's
 * service applies it and answers 2xx), then the readiness path must answer 2xx.
 */
export async function prepareUrlTarget(opts: {
  baseUrls: string[];
  applyHookUrl: string | null;
  readinessPath: string | null;
  poolConfig: unknown;
  headers: Record<string, string>;
  readyTimeoutMs: number;
  signal: AbortSignal;
}): Promise<void> {
  if (opts.applyHookUrl) {
    let res: Response;
    try {
      res = await fetch(opts.applyHookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: JSON.stringify({ poolConfig: opts.poolConfig }),
        signal: AbortSignal.any([opts.signal, AbortSignal.timeout(30_000)]),
        redirect: 'error',
      });
    } catch (err) {
      throw new RunError('apply_hook_failed', `apply hook ${opts.applyHookUrl} did not answer: ${(err as Error).message}`);
    }
    if (!res.ok) {
      throw new RunError('apply_hook_failed', `apply hook ${opts.applyHookUrl} answered HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
  }
  if (opts.readinessPath) {
    await Promise.all(
      opts.baseUrls.map((u) =>
        waitReady(new URL(opts.readinessPath!, u).toString(), { timeoutMs: opts.readyTimeoutMs, signal: opts.signal, what: `target ${u}`, headers: opts.headers }),
      ),
    );
  }
}
