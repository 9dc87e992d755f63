import { DEMO_EMAIL, DEMO_PASSWORD } from '@poolbench/db';

/**
 * Signs in to a running PoolBench as the demo user and switches to `teamId`: the cookie, and a
 * tRPC caller over HTTP (superjson's plain `{ json }` envelope). `origin` is the app's own URL,
 * which Better Auth and the mutation Origin check expect, whichever port `base` is.
 */
export async function stackSession(base: string, teamId: string, origin: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', origin },
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in at ${base}: HTTP ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const trpc = async <T>(path: string, input: unknown): Promise<T> => {
    const r = await fetch(`${base}/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', origin, cookie },
      body: JSON.stringify({ json: input }),
    });
    const body = (await r.json()) as { result?: { data?: { json?: T } }; error?: unknown };
    if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${JSON.stringify(body.error)}`);
    return body.result!.data!.json!;
  };
  /** A query (GET, as the browser sends one); `trpc` is for mutations. */
  const query = async <T>(path: string, input?: unknown): Promise<T> => {
    const q =
      input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
    const r = await fetch(`${base}/api/trpc/${path}${q}`, { headers: { cookie } });
    const body = (await r.json()) as { result?: { data?: { json?: T } }; error?: unknown };
    if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${JSON.stringify(body.error)}`);
    return body.result!.data!.json!;
  };
  await trpc('team.switch', { teamId });
  return { cookie, trpc, query };
}
