import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startDisturbance } from '../src/runs/disturbance';

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
    const own = spawn('sh', ['-c', BUSY], { stdio: 'ignore' });
    await new Promise((r) => own.on('exit', r));
    const ours = d2.stop()!;
    // the child's CPU (at least ~40 % of a core even on a busy machine) is attributed to us
    expect(ours.machineCpuPercent - ours.outsideCpuPercent).toBeGreaterThan(40);
    expect(ours.cores).toBeGreaterThan(0);
    expect(ours.seconds).toBeGreaterThan(1.8);
  }, 20_000);
});
