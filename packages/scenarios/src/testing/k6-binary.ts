import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_K6 = fileURLToPath(new URL('../../../k6/bin/k6', import.meta.url));

/** The k6 binary the tests use: $K6_BIN, else the PoolBench build. Throws (never skips) if missing. */
export function k6Binary(): string {
  const candidates = [process.env.K6_BIN, REPO_K6].filter((x): x is string => !!x);
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      `no k6 binary: looked at ${candidates.join(', ')}. Build it with "bash packages/k6/scripts/build-k6.sh", ` +
        'or for development "GOBIN=/tmp/k6plain go install go.k6.io/k6@v1.8.1" and K6_BIN=/tmp/k6plain/k6',
    );
  }
  return found;
}

const SAFE_FLAGS = ['--address', '', '--include-system-env-vars=false', '--no-usage-report'];

export interface K6Result {
  code: number;
  stdout: string;
  stderr: string;
  summary?: { metrics: Record<string, Record<string, unknown>> };
}

function exec(
  args: string[],
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      k6Binary(),
      args,
      {
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), ...env },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function withScript<T>(
  script: string,
  fn: (dir: string, file: string) => Promise<T>,
  files: Record<string, string> = {},
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'pb-scenarios-'));
  try {
    const file = join(dir, 'script.js');
    await writeFile(file, script);
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    return await fn(dir, file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `k6 inspect --execution-requirements`: parses the script and validates its execution plan. */
export function k6Inspect(
  script: string,
  baseUrls = 'http://127.0.0.1:9',
): Promise<{ code: number; stdout: string; stderr: string }> {
  return withScript(script, (_dir, file) =>
    exec(
      [
        'inspect',
        '--execution-requirements',
        '--include-system-env-vars=false',
        '-e',
        `BASE_URLS=${baseUrls}`,
        file,
      ],
      30_000,
    ),
  );
}

/** `k6 run` bounded in time, with the summary export parsed. */
/** `env` is k6's process environment (read by the script only with --include-system-env-vars, set when env is given). */
export function k6Run(
  script: string,
  baseUrls: string[],
  opts: {
    timeoutMs?: number;
    extraArgs?: (dir: string) => string[];
    env?: Record<string, string>;
    /** written beside the script (a generated scenario's `files`) */
    files?: Record<string, string>;
  } = {},
): Promise<K6Result> {
  return withScript(
    script,
    async (dir, file) => {
      const summaryFile = join(dir, 'summary.json');
      const extra = opts.extraArgs?.(dir) ?? [];
      const flags = opts.env
        ? SAFE_FLAGS.map((f) =>
            f === '--include-system-env-vars=false' ? '--include-system-env-vars=true' : f,
          )
        : SAFE_FLAGS;
      const r = await exec(
        [
          'run',
          ...flags,
          '--quiet',
          '--summary-export',
          summaryFile,
          ...extra,
          '-e',
          `BASE_URLS=${baseUrls.join(',')}`,
          file,
        ],
        opts.timeoutMs ?? 30_000,
        opts.env,
      );
      let summary: K6Result['summary'];
      try {
        summary = JSON.parse(await readFile(summaryFile, 'utf8')) as K6Result['summary'];
      } catch {
        summary = undefined;
      }
      return { ...r, summary };
    },
    opts.files,
  );
}
