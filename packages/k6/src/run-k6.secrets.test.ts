import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runK6 } from './run-k6';
import { ensureBuilt } from './testing/build';

/**
 * The command line k6 itself runs with. The spawn event fires once the child exists, which can be
 * before the setpriv/taskset wrappers have exec'd into k6 (the entry reads '' during an exec, and
 * the wrapper's own line before it), so this waits for k6's line instead of reading at an instant.
 */
const WRAPPERS = new Set(['setpriv', 'taskset', 'node']);
async function k6CommandLine(pid: number, deadlineMs = 20_000): Promise<string> {
  const until = Date.now() + deadlineMs;
  let last = '';
  while (Date.now() < until) {
    try {
      last = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      throw new Error(
        `k6 (pid ${pid}) exited before its command line was seen; last read ${JSON.stringify(last)}`,
      );
    }
    const argv = last.split('\0');
    const program = argv[0]?.split('/').pop() ?? '';
    if (program !== '' && !WRAPPERS.has(program) && argv.includes('run')) return last;
    await sleep(5);
  }
  throw new Error(
    `k6 (pid ${pid}) never showed its command line; last read ${JSON.stringify(last)}`,
  );
}

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
    let cmdline: Promise<string> | undefined;
    const secret = 'Bearer s3cr3t-token-value';
    const r = await runK6({
      script: `import http from 'k6/http';
        import { sleep } from 'k6';
        export const options = { iterations: 3, vus: 1 };
        export default function () { http.get(__ENV.BASE, { headers: { Authorization: __ENV.POOLBENCH_TEST_SECRET } }); sleep(0.7); }`,
      env: { BASE: url },
      secretEnv: { POOLBENCH_TEST_SECRET: secret },
      onSpawn: ({ pid }) => {
        cmdline = k6CommandLine(pid);
      },
    });
    expect(r.endReason).toBe('completed');
    expect(seen).toEqual([secret, secret, secret]);
    expect(await cmdline).toContain('--include-system-env-vars=true');
    expect(await cmdline).not.toContain('s3cr3t');
  });

  it('without secrets the script sees no environment at all', async () => {
    let cmdline: Promise<string> | undefined;
    await runK6({
      // k6 lives 2 s: long enough for the poll above to see it after its wrappers' exec
      script: `import { sleep } from 'k6'; export const options = { iterations: 1, vus: 1 }; export default function () { sleep(2); }`,
      onSpawn: ({ pid }) => {
        cmdline = k6CommandLine(pid);
      },
    });
    expect(await cmdline).toContain('--include-system-env-vars=false');
  });

  it('refuses names k6 would read as its own configuration', async () => {
    await expect(
      runK6({ script: 'export default function () {}', secretEnv: { K6_VUS: '1000' } }),
    ).rejects.toThrow(/not starting with K6_/);
  });
});
