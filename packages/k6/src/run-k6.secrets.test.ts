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
        import { sleep } from 'k6';
        export const options = { iterations: 3, vus: 1 };
        export default function () { http.get(__ENV.BASE, { headers: { Authorization: __ENV.POOLBENCH_TEST_SECRET } }); sleep(0.7); }`,
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
      // k6 lives 2 s, so its /proc entry is still there when the (asynchronous) spawn event arrives
      // on a loaded machine; an instant script had exited and read as '' once in a fresh-clone run
      script: `import { sleep } from 'k6'; export const options = { iterations: 1, vus: 1 }; export default function () { sleep(2); }`,
      onSpawn: ({ pid }) => {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      },
    });
    expect(cmdline).toContain('--include-system-env-vars=false');
  });

  it('refuses names k6 would read as its own configuration', async () => {
    await expect(
      runK6({ script: 'export default function () {}', secretEnv: { K6_VUS: '1000' } }),
    ).rejects.toThrow(/not starting with K6_/);
  });
});
