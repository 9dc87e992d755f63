import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runK6 } from './run-k6';
import { ensureBuilt } from './testing/build';

describe('runK6 secrets', () => {
  let url = '';
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(String(req.headers.authorization ?? ''));
    res.end('ok');
  });
  beforeAll(async () => {
    ensureBuilt();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }, 600_000);
  afterAll(() => server.close());

  it('reach the script through the environment, never the command line', async () => {
    let cmdline = '';
    const secret = 'Bearer s3cr3t-token-value';
    const r = await runK6({
      script: `import http from 'k6/http';
        export const options = { iterations: 3, vus: 1 };
        export default function () { http.get(__ENV.BASE, { headers: { Authorization: __ENV.POOLBENCH_TEST_SECRET } }); }`,
      env: { BASE: url },
      secretEnv: { POOLBENCH_TEST_SECRET: secret },
      onSpawn: ({ pid }) => {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      },
    });
    expect(r.endReason).toBe('completed');
    expect(seen).toEqual([secret, secret, secret]);
    expect(cmdline).toContain('--include-system-env-vars=true');
    expect(cmdline).not.toContain('s3cr3t');
  });

  it('without secrets the script sees no environment at all', async () => {
    let cmdline = '';
    await runK6({
      script: `export const options = { iterations: 1, vus: 1 }; export default function () {}`,
      onSpawn: ({ pid }) => {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      },
    });
    expect(cmdline).toContain('--include-system-env-vars=false');
  });

  it('refuses names k6 would read as its own configuration', async () => {
    await expect(runK6({ script: 'export default function () {}', secretEnv: { K6_VUS: '1000' } })).rejects.toThrow(/not starting with K6_/);
  });
});
