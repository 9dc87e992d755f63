import { afterAll, describe, expect, it } from 'vitest';
import { generateScenario } from './generate-scenario';
import type { ScenarioInput } from './scenario-schema';
import { k6Run, type K6Result } from './testing/k6-binary';
import { startRecordingServer, type RecordingServer } from './testing/recording-server';

// Flows through the real k6 against a local server with a login → token → /me pair.
const servers: RecordingServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function server(): Promise<RecordingServer> {
  const s = await startRecordingServer();
  servers.push(s);
  return s;
}
async function run(input: ScenarioInput, url: string): Promise<K6Result> {
  const g = generateScenario(input);
  const r = await k6Run(g.script, [url], { files: g.files });
  if (r.code !== 0) throw new Error(`k6 exited ${r.code}: ${r.stderr.slice(-3000)}`);
  return r;
}
const count = (r: K6Result, metric: string, field = 'count'): number => {
  const v = r.summary?.metrics[metric]?.[field];
  return typeof v === 'number' ? v : 0;
};

const users = 'username,password\nalice,pw-alice\nbob,pw-bob\ncarol,pw-carol\n';
const login = {
  name: 'login',
  method: 'POST' as const,
  path: '/login',
  body: { kind: 'json' as const, value: { username: '{{username}}', password: '{{password}}' } },
  extract: [
    { name: 'token', from: 'json' as const, path: 'token' },
    { name: 'requestId', from: 'header' as const, header: 'x-request-id' },
    { name: 'who', from: 'regex' as const, pattern: '"name":"([a-z]+)"' },
  ],
  checks: [{ kind: 'status' as const, equals: 200 }],
};
const me = {
  name: 'me',
  path: '/me',
  query: { after: '{{requestId}}', who: '{{who}}' },
  headers: { Authorization: 'Bearer {{token}}' },
  checks: [{ kind: 'json-equals' as const, path: 'name', value: null }],
};

describe.concurrent('flows in k6', () => {
  it('per-VU CSV rows log in, and each VU uses its own token on the next step', async () => {
    const s = await server();
    const r = await run(
      {
        template: 'fixed-requests',
        params: { requests: 9, concurrency: 3 },
        flow: true,
        data: { format: 'csv', content: users, per: 'vu' },
        requests: [login, { ...me, checks: [{ kind: 'body-contains', value: '"name"' }] }],
      },
      s.url,
    );
    const logins = s.requests.filter((q) => q.path === '/login');
    const mes = s.requests.filter((q) => q.path === '/me');
    expect(logins).toHaveLength(9);
    expect(mes).toHaveLength(9);
    // three VUs, three rows: every user logged in, with its own password
    const bodies = logins.map((q) => JSON.parse(q.body) as { username: string; password: string });
    expect(new Set(bodies.map((b) => b.username))).toEqual(new Set(['alice', 'bob', 'carol']));
    for (const b of bodies) expect(b.password).toBe(`pw-${b.username}`);
    // the token, header and regex extractions reached the next request
    for (const q of mes) {
      const who = q.query.get('who');
      expect(q.headers.authorization).toBe(`Bearer tok-${who}`);
      expect(q.query.get('after')).toMatch(/^r\d+$/);
    }
    expect(count(r, 'poolbench_check_failed')).toBe(0);
    expect(count(r, 'checks', 'fails')).toBe(0);
  });

  it('a failing body check counts the request as failed and ends the iteration', async () => {
    const s = await server();
    const r = await run(
      {
        template: 'fixed-requests',
        params: { requests: 4, concurrency: 1 },
        flow: true,
        data: { format: 'csv', content: users, per: 'iteration' },
        requests: [
          login,
          { ...me, checks: [{ kind: 'body-contains', value: 'nobody' }] },
          { name: 'after', path: '/after' },
        ],
      },
      s.url,
    );
    expect(s.requests.filter((q) => q.path === '/me')).toHaveLength(4);
    // the step after a failed one is never sent
    expect(s.requests.filter((q) => q.path === '/after')).toHaveLength(0);
    expect(count(r, 'poolbench_check_failed')).toBe(4);
    expect(count(r, 'checks', 'fails')).toBe(4);
    // per iteration: rows in turn, wrapping (alice, bob, carol, alice)
    const names = s.requests
      .filter((q) => q.path === '/login')
      .map((q) => (JSON.parse(q.body) as { username: string }).username)
      .sort();
    expect(names).toEqual(['alice', 'alice', 'bob', 'carol']);
  });

  it('a value that is not in the response is a failed check, and the flow stops there', async () => {
    const s = await server();
    const r = await run(
      {
        template: 'fixed-requests',
        params: { requests: 2, concurrency: 1 },
        flow: true,
        requests: [
          { path: '/plain', extract: [{ name: 'token', from: 'json', path: 'token' }] },
          { path: '/me', headers: { Authorization: 'Bearer {{token}}' } },
        ],
      },
      s.url,
    );
    expect(s.requests.filter((q) => q.path === '/me')).toHaveLength(0);
    expect(count(r, 'poolbench_check_failed')).toBe(2);
  });

  it('a wrong password is a failed request by status, not a check failure on top', async () => {
    const s = await server();
    const r = await run(
      {
        template: 'fixed-requests',
        params: { requests: 2, concurrency: 1 },
        flow: true,
        data: { format: 'json', content: '[{"username":"eve","password":"guess"}]' },
        requests: [login, me],
      },
      s.url,
    );
    expect(count(r, 'http_req_failed', 'passes')).toBe(2);
    expect(count(r, 'poolbench_check_failed')).toBe(0);
    expect(s.requests.filter((q) => q.path === '/me')).toHaveLength(0);
  });

  it('hostile values stay data where they go: header, path, query and JSON body', async () => {
    const s = await server();
    await run(
      {
        template: 'fixed-requests',
        params: { requests: 1, concurrency: 1 },
        flow: true,
        requests: [
          {
            path: '/hostile',
            extract: [
              { name: 'crlf', from: 'json', path: 'crlf' },
              { name: 'quote', from: 'json', path: 'quote' },
              { name: 'dots', from: 'json', path: 'dots' },
            ],
          },
          {
            method: 'POST',
            path: '/items/{{dots}}',
            query: { q: '{{dots}}' },
            headers: { 'X-Crlf': '{{crlf}}' },
            body: { kind: 'json', value: { said: '{{quote}}', crlf: '{{crlf}}' } },
          },
        ],
      },
      s.url,
    );
    const q = s.requests.find((x) => x.path.startsWith('/items/'));
    expect(q).toBeDefined();
    // one encoded path segment, not a traversal, and no query or fragment smuggled in
    expect(q!.path).toBe('/items/..%2F..%2Fadmin%3Fx%3D1%23f');
    expect(q!.query.get('q')).toBe('../../admin?x=1#f');
    expect(q!.query.get('x')).toBeNull();
    // no header injection: the line breaks are gone, the rest is one header value
    expect(q!.headers['x-crlf']).toBe('aX-Injected: 1');
    expect(q!.headers['x-injected']).toBeUndefined();
    // the JSON body stays valid JSON with the values as strings
    expect(JSON.parse(q!.body)).toEqual({ said: 'say "hi"\\', crlf: 'a\r\nX-Injected: 1' });
  });

  it('step think time pauses between steps, not after the last', async () => {
    const s = await server();
    const r = await run(
      {
        template: 'fixed-requests',
        params: { requests: 1, concurrency: 1 },
        flow: true,
        requests: [
          { path: '/one', thinkTimeMs: 400 },
          { path: '/two', thinkTimeMs: 5000 },
        ],
      },
      s.url,
    );
    const one = s.requests.find((q) => q.path === '/one')!;
    const two = s.requests.find((q) => q.path === '/two')!;
    expect(two.atMs - one.atMs).toBeGreaterThanOrEqual(400);
    expect(count(r, 'iteration_duration', 'max')).toBeLessThan(5000);
  });
});
