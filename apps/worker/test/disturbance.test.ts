import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  BEFORE_START_MIN_MS,
  disturbanceBeforeStart,
  startDisturbance,
} from '../src/runs/disturbance';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// busy for 2 to 3 s: `date +%s` counts whole seconds, so the first one is a part of a second
const BUSY = 'end=$(($(date +%s)+3)); while [ "$(date +%s)" -lt "$end" ]; do :; done';

/**
 * The disturbance of a run is the machine's CPU minus the worker's own tree and the database
 * servers. A busy process that is not ours (double-forked, so init adopts it) must count as
 * outside; the same work done by our own child must not.
 */
describe('disturbance: CPU outside the run, from /proc', () => {
  it("counts a stranger's busy loop as outside, and our own child's as ours", async () => {
    const d1 = startDisturbance();
    // the grandchild is reparented when its shell exits: not a descendant of this process
    spawn('sh', ['-c', `(${BUSY}) & exit 0`], { stdio: 'ignore' });
    await sleep(3300);
    const stranger = d1.stop()!;
    expect(stranger.outsideCpuPercent).toBeGreaterThan(30);

    const d2 = startDisturbance();
    // the shell prints its own and its children's CPU times (`times`) when the loop ends: the
    // ground truth of what our child used, however little of a core a busy machine left it
    const own = spawn('sh', ['-c', `${BUSY}; times`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    own.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await new Promise((r) => own.on('exit', r));
    const ours = d2.stop()!;
    const childCpuS = [...out.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
      (sum, m) => sum + 60 * Number(m[1]) + Number(m[2]),
      0,
    );
    expect(childCpuS).toBeGreaterThan(0.2);
    // what the run counts as its own covers the child's CPU (ticks are 10 ms; the rest of this
    // process adds to ours, never takes from it)
    const oursCpuS = ((ours.machineCpuPercent - ours.outsideCpuPercent) / 100) * ours.seconds;
    expect(oursCpuS).toBeGreaterThan(0.8 * childCpuS);
    expect(ours.cores).toBeGreaterThan(0);
    expect(ours.seconds).toBeGreaterThan(1.8);
  }, 20_000);

  it("counts another load generator's worker, named at the end, and its tree as the run's own", async () => {
    // two windows over the same stranger: one is told the stranger's pid, as a generator is told
    // the other generators' workers on its machine; the other is not
    const told = startDisturbance();
    const blind = startDisturbance();
    const sh = spawn('sh', ['-c', `(${BUSY}) & echo $!; exit 0`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pid = Number(
      await new Promise<string>((r) => sh.stdout.once('data', (b: Buffer) => r(b.toString()))),
    );
    await sleep(3300);
    const without = blind.stop()!;
    const withIt = told.stop([pid])!;
    expect(withIt.sharedWith).toBe(1);
    expect(without.sharedWith).toBeUndefined();
    // whatever else the machine did is in both; the stranger's loop only in the blind one
    expect(without.outsideCpuPercent - withIt.outsideCpuPercent).toBeGreaterThan(30);
    // a pid that is not there, or this process itself, names nothing
    expect(startDisturbance().stop([process.pid, 2 ** 22 + 1])?.sharedWith).toBeUndefined();
  }, 20_000);

  it('before a run: a quick preparation still gets a window of half a second', async () => {
    const started = Date.now();
    const d = await disturbanceBeforeStart(startDisturbance(), new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BEFORE_START_MIN_MS - 20);
    expect(d!.seconds).toBeGreaterThanOrEqual(0.5);
    expect(d!.outsideCpuPercent).toBeGreaterThanOrEqual(0);
    // an abort ends the wait at once
    const ac = new AbortController();
    ac.abort();
    const t0 = Date.now();
    await disturbanceBeforeStart(startDisturbance(), ac.signal);
    expect(Date.now() - t0).toBeLessThan(BEFORE_START_MIN_MS);
  });
});
