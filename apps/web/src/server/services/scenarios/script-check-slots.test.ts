import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { makeServices, makeTeam } from '~/test/fixtures';
import { ScriptCheckSlots, type ScriptCheckLimits } from './script-check-slots';
import { inspectScript } from './script-scenarios';

// init code that keeps k6 busy for a while, so checks sent at once overlap
const SLOW = `const until = Date.now() + 1500; while (Date.now() < until) {}
export default function () {}`;

/**
 * Checking a script runs k6 in the sandbox on the web host: checks are held to a number at once
 * per team and per installation (real Redis, real k6), the rest refused with a Retry-After.
 */
describe('script checks at once', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_script_checks'));
    services = makeServices();
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });
  const slots = (limits: Partial<ScriptCheckLimits> = {}, now?: () => number) =>
    new ScriptCheckSlots(
      () => services.redis,
      { perTeam: 2, perInstallation: 4, staleAfterMs: 180_000, ...limits },
      `pbtest-checks-${randomBytes(4).toString('hex')}`,
      now,
    );

  it('10 checks from one team at once: 2 run, 8 are refused with Retry-After', async () => {
    const team = await makeTeam(db, 'checks-one-team');
    const s = slots();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        inspectScript(db, team.teamId, { source: SLOW, files: {} }, s),
      ),
    );
    const ran = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(ran).toHaveLength(2);
    for (const r of ran) expect(r.value).toMatchObject({ ok: true });
    expect(refused).toHaveLength(8);
    for (const e of refused) {
      expect(e).toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '15' } });
      expect((e as Error).message).toMatch(/already has 2 k6 scripts being checked/);
    }
    // the slots came back: the next check runs
    await expect(
      inspectScript(db, team.teamId, { source: 'export default function () {}', files: {} }, s),
    ).resolves.toMatchObject({ ok: true });
  }, 120_000);

  it('the installation limit holds across teams', async () => {
    const [a, b] = [await makeTeam(db, 'checks-a'), await makeTeam(db, 'checks-b')];
    const s = slots({ perTeam: 2, perInstallation: 3 });
    const held = [await s.acquire(a.teamId), await s.acquire(a.teamId), await s.acquire(b.teamId)];
    await expect(s.acquire(b.teamId)).rejects.toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/checking 3 k6 scripts already/),
    });
    await held[0]!();
    await expect(s.acquire(b.teamId)).resolves.toBeTypeOf('function');
  });

  it('a slot its web process never gave back frees itself after staleAfterMs', async () => {
    let t = Date.now();
    const s = slots({ perTeam: 1 }, () => t);
    await s.acquire('team-died'); // never released: the process "died"
    t += 180_000 - 1;
    await expect(s.acquire('team-died')).rejects.toMatchObject({ code: 'rate_limited' });
    t += 1;
    await expect(s.acquire('team-died')).resolves.toBeTypeOf('function');
  });

  it('holds in this process alone while Redis is unreachable, stale slots freed by the same rule', async () => {
    let t = Date.now();
    const s = new ScriptCheckSlots(
      () => {
        throw new Error('redis down');
      },
      { perTeam: 1, perInstallation: 4, staleAfterMs: 180_000 },
      `pbtest-checks-${randomBytes(4).toString('hex')}`,
      () => t,
    );
    const release = await s.acquire('team-offline');
    await expect(s.acquire('team-offline')).rejects.toMatchObject({ code: 'rate_limited' });
    await release();
    await s.acquire('team-offline'); // never released
    t += 180_000 - 1;
    await expect(s.acquire('team-offline')).rejects.toMatchObject({ code: 'rate_limited' });
    t += 1;
    await expect(s.acquire('team-offline')).resolves.toBeTypeOf('function');
  });
});
