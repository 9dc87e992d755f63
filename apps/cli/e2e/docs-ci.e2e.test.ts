import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyEmail } from './verify-email';
import { shellBlocks, type DocBlock } from '../src/testing/doc-blocks';

// every temporary folder this file makes is removed when it ends, pass or fail
const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * docs/ci.md runs as written: every shell example, in order, in one directory, against the running
 * stack (scripts/stack.sh start), in a team made for the test by signing up, with only what its
 * first-run guide adds (the lab target, the seed presets), and a fresh API token made through the
 * same tRPC call as Settings -> API tokens. Each example
 * must end with the exit code its info string promises (```sh exit=1; unmarked: 0). The docs
 * cannot drift from the CLI, the server or the seed names again.
 */
const BASE = (process.env.POOLBENCH_E2E_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const cwd = tempDir('poolbench-docs-ci-');
let cookie = '';
let token = '';
let tokenId = '';

async function trpc<T>(path: string, input?: unknown): Promise<T> {
  const res =
    input === undefined
      ? await fetch(`${BASE}/api/trpc/${path}`, { headers: { origin: BASE, cookie } })
      : await fetch(`${BASE}/api/trpc/${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', origin: BASE, cookie },
          body: JSON.stringify({ json: input }),
        });
  const body = (await res.json()) as { result?: { data?: { json?: T } }; error?: unknown };
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!.data!.json!;
}

function sh(
  code: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-eo', 'pipefail', '-c', code], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (c) => resolve({ code: c ?? -1, stdout, stderr }));
  });
}

/** What each kind of example must show besides its exit code. */
function checkOutput(b: DocBlock, out: { stdout: string; stderr: string }) {
  if (b.code.includes('--json > poolbench.json')) {
    // the JSON alone on stdout, and the progress on stderr all the same (no silent CI log)
    const result = JSON.parse(readFileSync(join(cwd, 'poolbench.json'), 'utf8')) as {
      exitCode: number;
      comparison: { base: unknown; baseline: string };
    };
    expect(result.comparison.baseline).toBe('main');
    expect(out.stderr).toMatch(/runs done/);
  }
  if (b.code.includes('--gate-base')) {
    expect(out.stdout).toContain(
      'Compared with pool config "10 conns x 1 instance" of this experiment',
    );
    expect(out.stdout).toMatch(/REGRESSION/);
  }
  if (b.code.includes('poolbench.mjs cancel'))
    expect(out.stdout).toMatch(
      /\d+ queued runs? canceled; \d+ running runs? stops? within seconds/,
    );
  if (b.exit === 2 || b.exit === 3) {
    // the error is said once, on stderr, prefixed with the program's name
    expect(out.stderr.split('\n').filter((l) => l.startsWith('poolbench: '))).toHaveLength(1);
  }
  // a field problem the server puts in its detail and in problems[] is printed once, not twice
  if (b.code.includes('"ratePerSec": 0'))
    expect(out.stderr.split('scenario.params.ratePerSec: must be at least 1')).toHaveLength(2);
}

describe(`docs/ci.md examples against ${BASE}`, () => {
  beforeAll(async () => {
    let health: Response | Error = new Error('not asked');
    for (let i = 0; i < 30 && (health instanceof Error || !health.ok); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1000));
      health = await fetch(`${BASE}/api/health`).catch((e: unknown) => e as Error);
    }
    if (health instanceof Error || !health.ok)
      throw new Error(`PoolBench is not healthy at ${BASE}: start it with scripts/stack.sh start`);
    // a brand-new account and team, set up only through its first-run guide (the lab target and
    // the seed presets, two clicks): the names the docs use must exist in every team, not only
    // in the demo team the seed fills
    const email = `docs-ci-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const res = await fetch(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', origin: BASE },
      body: JSON.stringify({ name: 'Docs Reader', email, password: 'docs-ci-password-1' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    await verifyEmail(BASE, cookie, email);
    const me = await trpc<{ teams: { id: string; slug: string }[]; active: { id: string } | null }>(
      'team.me',
    );
    expect(me.teams).toHaveLength(1);
    expect(me.teams[0]!.slug).not.toBe('demo');
    // the onboarding's first step ("Add the lab target") and second ("Add all seed presets")
    const lab = await trpc<{ id: string }>('target.create', {
      kind: 'managed',
      name: 'Lab target',
      requestDefaults: { method: 'GET', path: '/work' },
    });
    await trpc('onboarding.addPresets', { targetId: lab.id });
    const t = await trpc<{ id: string; token: string }>('apiToken.create', {
      name: `docs/ci.md ${new Date().toISOString()}`,
      scopes: ['runs:read', 'runs:write'],
      expiresInDays: 1,
    });
    expect(t.token).toMatch(/^pb_/);
    [token, tokenId] = [t.token, t.id];
  });
  afterAll(async () => {
    if (tokenId) await trpc('apiToken.revoke', { id: tokenId });
  });

  const blocks = shellBlocks();
  it('has shell examples to run', () => expect(blocks.length).toBeGreaterThan(0));

  for (const b of blocks) {
    const title = `line ${b.line}: ${b.code
      .split('\n')
      .find((l) => l.trim() && !l.startsWith('#'))!
      .slice(0, 90)}`;
    if (b.env) {
      it(`${title} (placeholders: the test sets POOLBENCH_URL and a fresh POOLBENCH_TOKEN)`, () => {
        expect(b.code).toMatch(/export POOLBENCH_URL=/);
        expect(b.code).toMatch(/export POOLBENCH_TOKEN=/);
      });
      continue;
    }
    it(`${title} exits ${b.exit}`, async () => {
      const out = await sh(b.code, { POOLBENCH_URL: BASE, POOLBENCH_TOKEN: token });
      expect(
        out.code,
        `exit code of the example at docs/ci.md line ${b.line}\n--- stdout\n${out.stdout.slice(-3000)}\n--- stderr\n${out.stderr.slice(-3000)}`,
      ).toBe(b.exit);
      checkOutput(b, out);
    });
  }
});
