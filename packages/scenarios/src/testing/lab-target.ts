import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPO_BIN = fileURLToPath(
  new URL('../../../../apps/lab-targets/go/bin/lab-target', import.meta.url),
);

/** Test database; `lab-target setup` creates it if missing. */
export const LAB_DATABASE_URL =
  process.env.LAB_TEST_DATABASE_URL ??
  'postgres://poolbench:poolbench@127.0.0.1:54329/poolbench_test_scenarios';

export function labTargetBinary(): string {
  const candidates = [process.env.LAB_TARGET_BIN, REPO_BIN].filter((x): x is string => !!x);
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      `no lab-target binary: looked at ${candidates.join(', ')}. Build it with "bash apps/lab-targets/go/scripts/build.sh"`,
    );
  return found;
}

export function labTargetSetup(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      labTargetBinary(),
      ['setup', `--database-url=${LAB_DATABASE_URL}`, '--rows=200', '--fields=5'],
      { timeout: 30_000 },
      (err, _out, stderr) =>
        err ? reject(new Error(`lab-target setup failed: ${stderr}`)) : resolve(),
    );
  });
}

export interface LabTarget {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `lab-target serve <poolArgs>` on a free port. Resolves once it prints its address
 * (the flags passed validation); rejects with its stderr if it exits first.
 */
export function startLabTarget(poolArgs: string[]): Promise<LabTarget> {
  const child: ChildProcess = spawn(
    labTargetBinary(),
    [
      'serve',
      ...poolArgs,
      '--listen=127.0.0.1:0',
      `--database-url=${LAB_DATABASE_URL}`,
      '--instance-id=1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`lab-target did not start within 10 s: ${stderr}`));
    }, 10_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ url: m[1], stop });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `lab-target exited with code ${code} for ${poolArgs.join(' ')}: ${stderr.trim()}`,
        ),
      );
    });
  });
}

/** Polls GET /ready until 200 (prewarm done, database answers). */
export async function waitReady(url: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/ready`);
      if (r.status === 200) return;
      last = `${r.status} ${await r.text()}`;
    } catch (e) {
      last = String(e);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`lab-target at ${url} not ready: ${last}`);
}
