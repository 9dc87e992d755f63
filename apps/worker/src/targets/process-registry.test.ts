import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, ProcessRegistry } from './process-registry';

/** A pid no process has: a worker that died. */
const DEAD_OWNER = 2 ** 22 + 12_345;

const dirs: string[] = [];
const kids: number[] = [];
afterEach(() => {
  for (const pid of kids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function registry() {
  const dir = mkdtempSync(join(tmpdir(), 'pb-registry-'));
  dirs.push(dir);
  return { dir, reg: new ProcessRegistry(dir) };
}

function sleeper() {
  const child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
  kids.push(child.pid!);
  return child.pid!;
}

describe('process records a killed worker leaves behind', () => {
  it('a record written whole but not yet renamed still gets its process killed', async () => {
    const { dir, reg } = registry();
    const pid = sleeper();
    const rec = { pid, ownerPid: DEAD_OWNER, runId: 'r1', kind: 'k6', exe: 'sleep' };
    // the worker was killed between writing the temp file and renaming it
    writeFileSync(join(dir, `${pid}.${DEAD_OWNER}.json.tmp`), JSON.stringify(rec));
    expect(reg.sweepOrphans().map((r) => r.pid)).toEqual([pid]);
    await expect.poll(() => isAlive(pid)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a temp file cut short by the kill is removed; a live writer keeps its temp file', () => {
    const { dir, reg } = registry();
    writeFileSync(join(dir, `123.${DEAD_OWNER}.json.tmp`), '{"pid":12');
    const live = join(dir, `456.${process.pid}.json.tmp`);
    writeFileSync(live, '{"pid":4');
    expect(reg.sweepOrphans()).toEqual([]);
    expect(readdirSync(dir)).toEqual([`456.${process.pid}.json.tmp`]);
    expect(existsSync(live)).toBe(true);
  });

  it('add leaves only the record, and a live owner keeps its record through a sweep', () => {
    const { dir, reg } = registry();
    const pid = sleeper();
    reg.add({ pid, ownerPid: process.pid, runId: 'r2', kind: 'k6', exe: 'sleep' });
    expect(readdirSync(dir)).toEqual([`${pid}.json`]);
    expect(reg.sweepOrphans()).toEqual([]);
    expect(isAlive(pid)).toBe(true);
  });
});
