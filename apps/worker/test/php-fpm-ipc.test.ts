import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env';

// Two php-fpm lab targets on the same port in two network namespaces, as two installations (or
// two workers) on one host run them: they share the host's one SysV IPC space, so each must keep
// its counters under a key of its own, and neither may remove the other's at start or exit.
const env = loadEnv();
const canRun =
  process.getuid?.() === 0 &&
  existsSync('/usr/sbin/php-fpm8.2') &&
  (existsSync('/usr/sbin/nginx') || existsSync('/usr/bin/nginx'));
const PORT = 18_080;
const tag = randomBytes(3).toString('hex');
const namespaces = [`pbipc-a-${tag}`, `pbipc-b-${tag}`];
const dirs: string[] = [];
const children: ChildProcess[] = [];

const ns = (name: string, ...cmd: string[]) =>
  execFileSync('ip', ['netns', 'exec', name, ...cmd], { encoding: 'utf8' });
const sysvKeys = () =>
  execFileSync('ipcs', ['-m', '-s'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(/\s+/)[0]!.toLowerCase())
    .filter((k) => k.startsWith('0x'));
const keyOf = (dir: string) => {
  const run = readdirSync(dir).find((d) => d.startsWith('pb-php-'))!;
  const { shmKey } = JSON.parse(readFileSync(join(dir, run, 'config.json'), 'utf8')) as {
    shmKey: number;
  };
  return `0x${shmKey.toString(16).padStart(8, '0')}`;
};

async function start(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pb-ipc-'));
  dirs.push(dir);
  const child = spawn(
    'ip',
    [
      ...['netns', 'exec', name, env.LAB_PHP_BIN, 'serve', `--listen=127.0.0.1:${PORT}`],
      '--database-url=postgres://nobody:x@127.0.0.1:1/none',
    ],
    { env: { ...process.env, TMPDIR: dir }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => b.toString().includes('listening') && resolve());
    child.on('exit', (code) => reject(new Error(`lab-target-php exited ${code}`)));
  });
  // the counters are created by the first request that reads them
  ns(name, 'curl', '-fsS', '-o', '/dev/null', `http://127.0.0.1:${PORT}/metrics`);
  return keyOf(dir);
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

describe.runIf(canRun)('php-fpm lab targets on one host', () => {
  afterAll(async () => {
    await Promise.all(children.map(stop));
    for (const n of namespaces) execFileSync('ip', ['netns', 'del', n], { stdio: 'ignore' });
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('two on the same port in different network namespaces keep separate SysV counters', async () => {
    for (const n of namespaces) {
      execFileSync('ip', ['netns', 'add', n]);
      ns(n, 'ip', 'link', 'set', 'lo', 'up');
    }
    const a = await start(namespaces[0]!);
    const b = await start(namespaces[1]!);
    expect(a).not.toBe(b);
    expect(sysvKeys()).toEqual(expect.arrayContaining([a, b]));
    // one stopping removes its own counters and leaves the other's
    await stop(children[1]!);
    await new Promise((r) => setTimeout(r, 500));
    expect(sysvKeys()).toContain(a);
    expect(sysvKeys()).not.toContain(b);
    ns(namespaces[0]!, 'curl', '-fsS', '-o', '/dev/null', `http://127.0.0.1:${PORT}/metrics`);
  });
});
