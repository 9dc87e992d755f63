import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';

describe('editing a schedule (real Postgres)', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  let B: TeamFixture;
  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_schedules'));
    services = makeServices();
    A = await makeTeam(db, 'sca');
    B = await makeTeam(db, 'scb');
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('changes name, cron, time zone and the repeats of the experiments it starts; the list shows them', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    await member.schedule.update({ id: A.scheduleId, name: 'nightly p99', cron: '30 2 * * 1-5', timezone: 'Europe/Berlin', repeats: 6 });
    const s = (await member.schedule.list()).find((x) => x.id === A.scheduleId)!;
    expect(s).toMatchObject({ name: 'nightly p99', cron: '30 2 * * 1-5', timezone: 'Europe/Berlin', sourceExperiment: { repeats: 6 } });
    expect(s.preview.next.length).toBeGreaterThan(0);
  });

  it('says what is wrong under the field at fault, and changes nothing', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const before = await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } });
    await expect(member.schedule.update({ id: A.scheduleId, name: 'x', cron: '61 * * * *', timezone: 'UTC', repeats: 5 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(member.schedule.update({ id: A.scheduleId, name: 'x', cron: '0 3 * * *', timezone: 'Mars/Olympus', repeats: 5 })).rejects.toThrow(/time zone/);
    expect(await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } })).toEqual(before);
  });

  it("another team's schedule is NOT_FOUND and stays as it was", async () => {
    const before = await db.schedule.findUniqueOrThrow({ where: { id: B.scheduleId } });
    await expect(callerFor(db, services, A.users.owner, A.teamId).schedule.update({ id: B.scheduleId, name: 'mine now', cron: '0 3 * * *', timezone: 'UTC', repeats: 5 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db.schedule.findUniqueOrThrow({ where: { id: B.scheduleId } })).toEqual(before);
  });
});
