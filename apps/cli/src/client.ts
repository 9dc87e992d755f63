export interface Problem {
  status: number;
  code: string;
  detail: string;
  problems?: { path: string; message: string }[];
}

/** A problem+json answer (4xx/5xx) or a network failure after the retries. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    // validation answers often say every field problem in `detail` already: print each one once
    const extra = (problem.problems ?? [])
      .map((p) => `${p.path}: ${p.message}`)
      .filter((p) => !problem.detail.includes(p));
    super(
      `${problem.detail} (${problem.code}, HTTP ${problem.status})${extra.length ? `: ${extra.join('; ')}` : ''}`,
    );
    this.name = 'ApiError';
  }
}

export interface ClientOptions {
  baseUrl: string;
  token: string;
  /** attempts for network errors, 429 and 502/503/504; POSTs are retried only with an Idempotency-Key */
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

const RETRYABLE = new Set([429, 502, 503, 504]);

export function createClient(opts: ClientOptions) {
  const attempts = opts.attempts ?? 5;
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const doFetch = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/+$/, '');

  async function request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const retrySafe = method === 'GET' || 'Idempotency-Key' in headers;
    let lastError: ApiError | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let res: Response;
      try {
        res = await doFetch(`${base}/api/v1${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${opts.token}`,
            Accept: 'application/json',
            ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
            ...headers,
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(60_000),
        });
      } catch (err) {
        lastError = new ApiError({
          status: 0,
          code: 'network',
          detail: `cannot reach PoolBench at ${base}: ${(err as Error).cause ? String((err as { cause: unknown }).cause) : (err as Error).message}`,
        });
        if (!retrySafe || attempt === attempts) throw lastError;
        await sleep(backoff(attempt));
        continue;
      }
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (res.ok) return json as T;
      const p = (json ?? {}) as Partial<Problem>;
      lastError = new ApiError({
        status: res.status,
        code: p.code ?? `http_${res.status}`,
        detail: p.detail ?? (text.slice(0, 200) || res.statusText),
        ...(p.problems ? { problems: p.problems } : {}),
      });
      if (!RETRYABLE.has(res.status) || !retrySafe || attempt === attempts) throw lastError;
      const retryAfter = Number(res.headers.get('retry-after'));
      await sleep(
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter, 120) * 1000
          : backoff(attempt),
      );
    }
    throw lastError!;
  }

  return {
    get: <T>(path: string) => request<T>('GET', path),
    post: <T>(path: string, body: unknown, headers?: Record<string, string>) =>
      request<T>('POST', path, body, headers),
    delete: <T>(path: string) => request<T>('DELETE', path),
  };
}
export type Client = ReturnType<typeof createClient>;

const backoff = (attempt: number) => Math.min(30_000, 500 * 2 ** (attempt - 1));
