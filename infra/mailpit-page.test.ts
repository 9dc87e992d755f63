import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Mailpit that scripts/setup.sh builds (infra/build-mailpit.sh), started on ports of its own
// with a throwaway database: its page loads, not only its API.
const BIN = join(import.meta.dirname, '..', '.data', 'bin', 'mailpit');
const AUTH = 'poolbench:page-test-password';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe("the local mail catcher's web page", () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailpit-page-'));
  let base = '';
  let stop = () => {};
  const headers = { Authorization: `Basic ${Buffer.from(AUTH).toString('base64')}` };
  beforeAll(async () => {
    const [smtp, http] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${http}`;
    const p = spawn(
      BIN,
      [
        '--smtp',
        `127.0.0.1:${smtp}`,
        '--listen',
        `127.0.0.1:${http}`,
        '--database',
        join(dir, 'mailpit.db'),
        '--disable-version-check',
      ],
      { env: { PATH: process.env.PATH, MP_UI_AUTH: AUTH }, stdio: 'ignore' },
    );
    stop = () => p.kill('SIGTERM');
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${base}/api/v1/info`, { headers }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`mailpit did not answer on ${base}`);
  });
  afterAll(() => {
    stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves its inbox page with the scripts and styles that draw it', async () => {
    const page = await fetch(`${base}/`, { headers });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="app"');
    for (const asset of ['/dist/app.js', '/dist/app.css']) {
      const r = await fetch(`${base}${asset}`, { headers });
      expect(r.status, asset).toBe(200);
      // a build without the page answers these with nothing or an error page
      expect((await r.arrayBuffer()).byteLength, asset).toBeGreaterThan(10_000);
    }
  });
});
