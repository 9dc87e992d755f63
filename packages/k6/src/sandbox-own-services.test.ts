import { createServer, type Server } from 'node:http';
import { k6BlacklistFor, k6HostsFor } from '@poolbench/contracts/net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runK6, type K6RunResult } from './run-k6';
import { ensureBuilt } from './testing/build';

// A user's script whose run targets an allowed port of this machine (the lab target's kind of
// address) tries the installation's own services on the same machine with every k6 client that
// dials: k6/http, k6/experimental/redis, k6/ws, k6/net/grpc. The real k6 build in the real
// sandbox, with the pins the worker computes for such a run.

const MiB = 1024 * 1024;
const port = (url: string | undefined, fallback: number) =>
  url ? Number(new URL(url).port) || fallback : fallback;
const REDIS = port(process.env.REDIS_URL, 63799);
const PG = port(process.env.DATABASE_URL, 54329);
const WEB = Number(process.env.PORT ?? 3000);

let target: Server;
let targetPort = 0;
const requests: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  target = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetPort = (target.address() as { port: number }).port;
}, 600_000);

afterAll(() => {
  target?.close();
});

const everything = (r: K6RunResult) =>
  [...r.stdoutTail, ...r.stderrTail, r.k6Error ?? ''].join('\n');

describe("a user's script and the installation's own services", () => {
  it('reaches none of them, by any client or spelling, beside an allowed target on loopback', async () => {
    const hosts = k6HostsFor([{ host: 'target.test', port: targetPort, address: '127.0.0.1' }]);
    const r = await runK6({
      script: `import http from 'k6/http';
       import redis from 'k6/experimental/redis';
       import ws from 'k6/ws';
       import grpc from 'k6/net/grpc';
       export const options = { iterations: 1, vus: 1 };
       const show = (what, res) => console.log(what + ' status=' + res.status + ' error=' + res.error);
       const r = new redis.Client('redis://127.0.0.1:${REDIS}');
       const g = new grpc.Client();
       export default async function () {
         show('pinned', http.get('http://target.test:${targetPort}/pinned'));
         show('redis-http', http.get('http://127.0.0.1:${REDIS}/'));
         show('redis-name', http.get('http://localhost:${REDIS}/'));
         show('redis-v6', http.get('http://[::1]:${REDIS}/'));
         show('redis-mapped', http.get('http://[::ffff:127.0.0.1]:${REDIS}/'));
         show('pg-any', http.get('http://0.0.0.0:${PG}/'));
         show('web-other-lo', http.get('http://127.0.0.2:${WEB}/'));
         try { console.log('redis-module ok ' + (await r.sendCommand('DBSIZE'))); }
         catch (e) { console.log('redis-module error=' + e); }
         try { const res = ws.connect('ws://127.0.0.1:${WEB}/', {}, (s) => s.close()); console.log('ws status=' + (res && res.status) + ' error=' + (res && res.error)); }
         catch (e) { console.log('ws error=' + e); }
         try { g.connect('127.0.0.1:${PG}', { plaintext: true, reflect: false, timeout: '2s' }); console.log('grpc ok'); }
         catch (e) { console.log('grpc error=' + e); }
       }`,
      blacklistIps: k6BlacklistFor(['127.0.0.1']),
      sandbox: { memoryBytes: 256 * MiB, hosts },
      timeoutMs: 60_000,
    });
    const out = everything(r);
    expect(r.endReason, out).toBe('completed');
    expect(out).toContain('pinned status=200');
    for (const what of [
      'redis-http',
      'redis-name',
      'redis-v6',
      'redis-mapped',
      'pg-any',
      'web-other-lo',
    ])
      expect(out, what).toMatch(new RegExp(`${what} status=0 error=.*blacklisted`));
    expect(out).toMatch(/redis-module error=.*blacklisted/);
    expect(out).not.toContain('redis-module ok');
    expect(out).toMatch(/ws (status=\S+ )?error=.*blacklisted/);
    expect(out).toMatch(/grpc error=.*blacklisted/);
    expect(requests).toEqual(['/pinned']);
  });
});
