import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret, type Db } from '@poolbench/db';
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
    await member.schedule.update({
      id: A.scheduleId,
      name: 'nightly p99',
      cron: '30 2 * * 1-5',
      timezone: 'Europe/Berlin',
      repeats: 6,
    });
    const s = (await member.schedule.list()).find((x) => x.id === A.scheduleId)!;
    expect(s).toMatchObject({
      name: 'nightly p99',
      cron: '30 2 * * 1-5',
      timezone: 'Europe/Berlin',
      sourceExperiment: { repeats: 6 },
    });
    expect(s.preview.next.length).toBeGreaterThan(0);
  });

  it('says what is wrong under the field at fault, and changes nothing', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const before = await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } });
    await expect(
      member.schedule.update({
        id: A.scheduleId,
        name: 'x',
        cron: '61 * * * *',
        timezone: 'UTC',
        repeats: 5,
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(
      member.schedule.update({
        id: A.scheduleId,
        name: 'x',
        cron: '0 3 * * *',
        timezone: 'Mars/Olympus',
        repeats: 5,
      }),
    ).rejects.toThrow(/time zone/);
    expect(await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } })).toEqual(before);
  });

  it("another team's schedule is NOT_FOUND and stays as it was", async () => {
    const before = await db.schedule.findUniqueOrThrow({ where: { id: B.scheduleId } });
    await expect(
      callerFor(db, services, A.users.owner, A.teamId).schedule.update({
        id: B.scheduleId,
        name: 'mine now',
        cron: '0 3 * * *',
        timezone: 'UTC',
        repeats: 5,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db.schedule.findUniqueOrThrow({ where: { id: B.scheduleId } })).toEqual(before);
  });

  const notify = {
    baselineName: 'nightly',
    notifyOn: 'regression' as const,
    webhookFormat: 'slack' as const,
    webhookUrl: 'https://hooks.slack.example/services/T0/B0/SECRETPATH',
    webhookSecret: 'whsec-0123456789abcdef',
    removeWebhook: false,
  };

  it('a webhook is sealed at rest and only its host is listed; empty URL and secret keep the stored ones', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    await member.schedule.setNotify({ id: A.scheduleId, ...notify });
    const row = await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } });
    expect(Buffer.from(row.webhookUrlSealed!).toString('latin1')).not.toContain('SECRETPATH');
    expect(openSecret(row.webhookUrlSealed!, services.key)).toBe(notify.webhookUrl);
    expect(openSecret(row.webhookSecretSealed!, services.key)).toBe(notify.webhookSecret);
    const listed = (await member.schedule.list()).find((x) => x.id === A.scheduleId)!;
    expect(listed).toMatchObject({
      baselineName: 'nightly',
      notifyOn: 'regression',
      webhook: { host: 'hooks.slack.example', format: 'slack' },
      lastNotification: null,
    });
    expect(JSON.stringify(listed)).not.toContain('SECRETPATH');
    expect(JSON.stringify(listed)).not.toContain('whsec');

    await member.schedule.setNotify({
      id: A.scheduleId,
      ...notify,
      notifyOn: 'always',
      webhookUrl: '',
      webhookSecret: '',
    });
    const kept = await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } });
    expect(openSecret(kept.webhookUrlSealed!, services.key)).toBe(notify.webhookUrl);
    expect(kept.notifyOn).toBe('always');

    // a stored webhook on regressions still needs its baseline: clearing the name is refused
    await expect(
      member.schedule.setNotify({
        id: A.scheduleId,
        ...notify,
        baselineName: '',
        webhookUrl: '',
        webhookSecret: '',
      }),
    ).rejects.toThrow(/baselineName.*required to notify on a regression/s);
    expect(
      (await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } })).baselineName,
    ).toBe('nightly');

    await member.schedule.setNotify({ id: A.scheduleId, ...notify, removeWebhook: true });
    expect(await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } })).toMatchObject({
      webhookUrlSealed: null,
      webhookSecretSealed: null,
      webhookHost: null,
      baselineName: 'nightly',
    });
  });

  it('names the field at fault: credentials in the URL, a short or missing secret, a regression without a baseline', async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const err = (input: Partial<typeof notify>) =>
      member.schedule.setNotify({ id: A.scheduleId, ...notify, ...input }).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    expect(await err({ webhookUrl: 'https://u:p@hooks.example.com/x' })).toMatch(
      /webhookUrl.*user:password/s,
    );
    expect(await err({ webhookUrl: 'ftp://hooks.example.com/x' })).toMatch(/webhookUrl.*http/s);
    expect(await err({ webhookSecret: 'short' })).toMatch(/webhookSecret.*16 characters/s);
    expect(await err({ webhookSecret: '' })).toMatch(/webhookSecret.*required/s);
    expect(await err({ baselineName: '' })).toMatch(/baselineName.*required/s);
    expect(
      (await db.schedule.findUniqueOrThrow({ where: { id: A.scheduleId } })).webhookUrlSealed,
    ).toBeNull();
  });

  it("run now starts the schedule's experiment as a firing; another team's schedule is NOT_FOUND", async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const { experimentId } = await member.schedule.runNow({ id: A.scheduleId });
    const e = await db.experiment.findUniqueOrThrow({
      where: { id: experimentId },
      select: { scheduleId: true, name: true, _count: { select: { runs: true } } },
    });
    expect(e.scheduleId).toBe(A.scheduleId);
    expect(e.name).toMatch(/\(run now\)$/);
    expect(e._count.runs).toBeGreaterThan(0);
    await expect(member.schedule.runNow({ id: B.scheduleId })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(member.schedule.setNotify({ id: B.scheduleId, ...notify })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(
      (await db.schedule.findUniqueOrThrow({ where: { id: B.scheduleId } })).webhookUrlSealed,
    ).toBeNull();
  });

  it("a schedule's definition is an experiment of its own kind: never listed, never run", async () => {
    const member = callerFor(db, services, A.users.member, A.teamId);
    const created = await member.experiment.schedule({
      definition: {
        name: 'weekly definition',
        targetId: A.targetId,
        poolConfigIds: [A.poolConfigId],
        scenarioIds: [A.scenarioId],
        repeats: 2,
        order: 'interleaved',
        loadGenerators: 1,
      },
      schedule: { name: 'weekly', cron: '0 4 * * 1', timezone: 'UTC' },
    });
    const def = await db.experiment.findFirstOrThrow({
      where: { schedules: { some: { id: created.id } } },
      select: { id: true, kind: true, _count: { select: { runs: true } } },
    });
    expect(def).toMatchObject({ kind: 'schedule_definition', _count: { runs: 0 } });
    const listed = await member.experiment.list({ limit: 100 });
    expect(JSON.stringify(listed)).not.toContain(def.id);
  });
});
