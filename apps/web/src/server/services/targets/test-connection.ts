import { parseTarget, type Db } from '@poolbench/db';
import { redactUrl } from '@poolbench/contracts/net';
import { NotFoundError } from '../errors';
import { checkTargetHosts } from './check-target-hosts';
import { refuseOwnServiceUrl } from './refuse-own-service';

export type ConnectionTest =
  | { kind: 'managed'; message: string }
  | {
      kind: 'url';
      url: string;
      ok: boolean;
      status: number | null;
      latencyMs: number;
      headers: Array<[string, string]>;
      error: string | null;
      note: string;
    };

const TIMEOUT_MS = 5000;

/**
 * Probes a URL target's readiness path (or its default request) once, from the server, only after
 * re-checking the allowlist. Managed targets have nothing to probe: the worker starts them per run.
 */
export async function testTargetConnection(
  db: Db,
  teamId: string,
  id: string,
): Promise<ConnectionTest> {
  const row = await db.target.findFirst({
    where: { id, teamId, archivedAt: null },
    select: {
      kind: true,
      baseUrls: true,
      readinessPath: true,
      requestDefaults: true,
      secretHeaderNames: true,
    },
  });
  if (!row) throw new NotFoundError('target');
  const t = parseTarget(row);
  if (t.kind === 'managed') {
    return {
      kind: 'managed',
      message:
        "Managed targets are started by the worker for each run (a real cold start with the run's pool config), so there is nothing running to probe now. The worker waits for /ready before k6 starts and fails the run with the reason if it never gets ready.",
    };
  }
  const defaults = t.requestDefaults;
  const base = t.baseUrls[0];
  if (!base) throw new NotFoundError('base URL');
  const url = new URL(t.readinessPath ?? defaults.path ?? '/', base).toString();
  await refuseOwnServiceUrl('baseUrls.0', url);
  await checkTargetHosts(db, teamId, [url]);
  const method = t.readinessPath ? 'GET' : (defaults.method ?? 'GET');
  const started = performance.now();
  const note =
    t.secretHeaderNames.length > 0
      ? `Sent without the secret headers (${t.secretHeaderNames.join(', ')}): only the worker opens secrets.`
      : "Sent with the target's non-secret default headers.";
  try {
    const res = await fetch(url, {
      method,
      headers: defaults.headers ?? {},
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      cache: 'no-store',
    });
    await res.body?.cancel();
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    return {
      kind: 'url',
      url: redactUrl(url),
      ok: res.ok,
      status: res.status,
      latencyMs,
      headers: [...res.headers.entries()].slice(0, 24),
      error: null,
      note,
    };
  } catch (e) {
    const latencyMs = Math.round(performance.now() - started);
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const reason =
      err.name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS} ms`
        : (err.cause?.code ?? err.cause?.message ?? err.message);
    return {
      kind: 'url',
      url: redactUrl(url),
      ok: false,
      status: null,
      latencyMs,
      headers: [],
      error: reason,
      note,
    };
  }
}
