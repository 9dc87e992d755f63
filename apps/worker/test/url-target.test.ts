import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { sealSecret } from '@poolbench/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, sustained, type World } from './harness';

const KEY = randomBytes(32);

describe('worker: URL target with an apply hook, an allowlist entry and secret headers', () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld('urltarget');
  });
  afterEach(async () => w?.killWorkers());
  afterAll(async () => w?.dispose(), 120_000);

  it('applies the pool config, sends the secret and the plain target headers on every request, and never stores the secret', async () => {
    const auth: string[] = [];
    const plain: string[] = [];
    const applied: unknown[] = [];
    const server = createServer((req, res) => {
      if (req.url === '/apply') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          applied.push(JSON.parse(body));
          res.end('{}');
        });
        return;
      }
      auth.push(String(req.headers['x-api-key'] ?? ''));
      if (req.url === '/health') plain.push(String(req.headers['x-plain'] ?? ''));
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      await w.db.allowedHost.create({
        data: { teamId: w.ids.teamId, pattern: '127.0.0.0/8', createdById: w.ids.userId },
      });
      const target = await w.db.target.create({
        data: {
          teamId: w.ids.teamId,
          name: 'api',
          kind: 'url',
          baseUrls: [base],
          requestDefaults: { headers: { 'X-Plain': 'plain-1' } },
          readinessPath: '/ready',
          applyHookUrl: `${base}/apply`,
          secretHeaderNames: ['X-Api-Key'],
          secretsEncrypted: sealSecret({ headers: { 'X-Api-Key': 'k-very-secret-123' } }, KEY),
        },
      });
      const pc = await w.db.poolConfig.create({
        data: {
          teamId: w.ids.teamId,
          targetId: target.id,
          name: 'max 7',
          strategy: 'lazy',
          params: { maxConns: 7 },
        },
      });
      const sc = await w.scenario('2 s api', { ...sustained(1, 2000), readyPath: '/ready' });
      w.startWorker({ POOLBENCH_SECRET_KEY: KEY.toString('base64') });
      const { runIds } = await w.launch([pc.id], [sc.id], 1, target.id);
      const run = await w.waitForStatus(runIds[0]!, ['succeeded', 'failed']);
      expect(run.status, `${run.errorCode}: ${run.errorMessage}`).toBe('succeeded');
      expect(applied).toEqual([
        {
          poolConfig: expect.objectContaining({
            strategy: 'lazy',
            params: expect.objectContaining({ maxConns: 7 }),
          }),
        },
      ]);
      expect(auth.length).toBeGreaterThan(5);
      expect(new Set(auth)).toEqual(new Set(['k-very-secret-123']));
      // The target's non-secret headers go with every request too (issue 12).
      expect(plain.length).toBeGreaterThan(5);
      expect(new Set(plain)).toEqual(new Set(['plain-1']));
      const stored = JSON.stringify(await w.db.run.findUniqueOrThrow({ where: { id: run.id } }));
      expect(stored).not.toContain('k-very-secret-123');
      expect(w.logs.join('\n')).not.toContain('k-very-secret-123');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
