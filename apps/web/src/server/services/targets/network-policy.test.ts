import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TRPCError } from '@trpc/server';
import type { Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, openRanges, type TeamFixture } from '~/test/fixtures';

// Real Postgres: the allowlist and target rules as an admin meets them through tRPC.
describe('where load may go: allowlist entries, target URLs, monitor DSN', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let A: TeamFixture;
  const admin = () => callerFor(db, services, A.users.admin, A.teamId);
  const fail = (p: Promise<unknown>) =>
    p.then(
      () => expect.unreachable('should be refused'),
      (e: unknown) => e as TRPCError,
    );

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_netsec'));
    services = makeServices();
    A = await makeTeam(db, 'netsec');
    // what these tests allow inside: the installation opened it first, as its admin would
    await openRanges(db, services, ['127.0.0.0/8', '::1/128', '0.0.0.0/8', '10.0.0.0/8']);
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('refuses link-local and cloud metadata outright, even when confirmed', async () => {
    for (const pattern of ['169.254.0.0/16', '169.254.169.254', 'fd00:ec2::254', 'fe80::/10']) {
      const e = await fail(admin().team.allow({ pattern, confirmBroad: true }));
      expect(e.code, pattern).toBe('BAD_REQUEST');
      expect(e.message, pattern).toMatch(
        /^pattern: includes (link-local|the cloud metadata address).*can never be allowed/,
      );
    }
  });

  it('judges IPv4-mapped, IPv4-compatible and NAT64 forms by the IPv4 they carry', async () => {
    for (const pattern of [
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe/128',
      '::ffff:0:0/96',
      '::a9fe:a9fe',
      '64:ff9b::/96',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::/48',
    ]) {
      const e = await fail(admin().team.allow({ pattern, confirmBroad: true }));
      expect(e.code, pattern).toBe('BAD_REQUEST');
      expect(e.message, pattern).toMatch(
        /^pattern: includes (link-local 169\.254\.0\.0\/16|the cloud metadata address) \(as IPv4 inside IPv6\).*can never be allowed/,
      );
    }
    // an entry saved before this rule does not let a target reach the metadata service either
    await db.allowedHost.create({
      data: { teamId: A.teamId, pattern: '::ffff:0:0/96', createdById: A.users.owner.id },
    });
    for (const host of ['[::ffff:a9fe:a9fe]', '[::ffff:169.254.169.254]', '[64:ff9b::a9fe:a9fe]']) {
      const e = await fail(admin().target.create(target({ baseUrls: [`http://${host}:80`] })));
      expect(e.message, host).toMatch(/^load to .* is never allowed: it is .*169\.254/);
    }
    await db.allowedHost.deleteMany({ where: { teamId: A.teamId, pattern: '::ffff:0:0/96' } });
    expect(await db.target.count({ where: { teamId: A.teamId, kind: 'url' } })).toBe(0);
  });

  it('checks webhook URLs when they are saved, with the rule of delivery', async () => {
    const notify = (webhookUrl: string) =>
      admin().schedule.setNotify({
        id: A.scheduleId,
        notifyOn: 'always',
        webhookFormat: 'generic',
        webhookUrl,
        webhookSecret: 'whsec-0123456789abcdef',
        baselineName: '',
        removeWebhook: false,
        settleUpToRepeats: null,
      });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/latest/',
      'http://[64:ff9b::a9fe:a9fe]/latest/',
    ]) {
      const e = await fail(notify(url));
      expect(e.code, url).toBe('BAD_REQUEST');
      expect(e.message, url).toMatch(
        /^webhookUrl: webhook to .* is never allowed: it is .*169\.254/,
      );
    }
    const e = await fail(notify('http://127.0.0.2:8080/hook'));
    expect(e.message).toBe(
      "webhookUrl: webhook to 127.0.0.2 is not allowed: it is a loopback address; an admin can add 127.0.0.2 to the team's allowed hosts (Settings → Allowlist)",
    );
    expect(
      await db.schedule.findUniqueOrThrow({
        where: { id: A.scheduleId },
        select: { webhookHost: true },
      }),
    ).toEqual({ webhookHost: null });
    // allowed by an IP entry, or public: saved
    await admin().team.allow({ pattern: '127.0.0.2' });
    await notify('http://127.0.0.2:8080/hook');
    await notify('http://93.184.216.34/hook');
  });

  it('refuses ranges wider than /8 or /32 unless the admin confirms them, and says what each entry allows', async () => {
    const e = await fail(admin().team.allow({ pattern: '192.0.0.0/2' }));
    expect(e.message).toMatch(
      /^confirmBroad: 192\.0\.0\.0\/2 allows 2\^30 addresses \(wider than \/8\); confirm/,
    );
    // Everything includes the metadata service: never, not even confirmed.
    await expect(
      fail(admin().team.allow({ pattern: '0.0.0.0/0', confirmBroad: true })),
    ).resolves.toMatchObject({ message: expect.stringMatching(/^pattern: includes link-local/) });
    await expect(fail(admin().team.allow({ pattern: '2001:db8::/16' }))).resolves.toMatchObject({
      message: expect.stringMatching(/^confirmBroad: .*wider than \/32/),
    });
    // confirmed, but its special-purpose parts are not all open on this installation
    await expect(
      fail(admin().team.allow({ pattern: '192.0.0.0/2', confirmBroad: true })),
    ).resolves.toMatchObject({
      message: expect.stringMatching(
        /^pattern: 192\.0\.0\.0\/2 holds 192\.0\.0\.0\/24 \(IETF protocol assignments\) .*an installation admin must open it first/,
      ),
    });
    await admin().team.allow({ pattern: '0.0.0.0/2', confirmBroad: true });
    await admin().team.allow({ pattern: '127.0.0.0/24' });
    const list = await admin().team.allowlist();
    expect(list.find((h) => h.pattern === '127.0.0.0/24')?.allows).toBe('256 addresses, loopback');
    expect(list.find((h) => h.pattern === '0.0.0.0/2')?.allows).toBe(
      '2^30 addresses, public and special-purpose (this network, private)',
    );
    expect(list.find((h) => h.pattern === 'netsec.example.test')?.allows).toBe(
      'this host name, public addresses only',
    );
  });

  const target = (over: Record<string, unknown>) => ({
    kind: 'url' as const,
    name: `t-${Math.random()}`,
    baseUrls: ['http://netsec.example.test'],
    requestDefaults: { method: 'GET' as const, path: '/' },
    ...over,
  });

  it('refuses credentials in base, hook and metrics URLs, naming the field and pointing at secret headers', async () => {
    for (const [field, over] of [
      ['baseUrls.0', { baseUrls: ['http://user:pass@netsec.example.test'] }],
      ['applyHookUrl', { applyHookUrl: 'http://user@netsec.example.test/apply' }],
      ['metricsUrl', { metricsUrl: 'http://:pw@netsec.example.test/metrics' }],
    ] as const) {
      const e = await fail(admin().target.create(target(over)));
      expect(e.code).toBe('BAD_REQUEST');
      const issues =
        (e.cause as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues ?? [];
      expect(issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toContain(
        `${field}: credentials in URLs are not allowed; use a secret header such as Authorization`,
      );
    }
    expect(await db.target.count({ where: { teamId: A.teamId, kind: 'url' } })).toBe(0);
  });

  it("refuses a monitor DSN at PoolBench's own database or on a host the team did not allow", async () => {
    const own = new URL(
      process.env.DATABASE_URL ?? 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
    );
    for (const host of ['localhost', '127.0.0.1', own.hostname]) {
      const dsn = `postgresql://x:y@${host}:${own.port || 5432}/other`;
      const e = await fail(admin().target.create(target({ monitorDsn: dsn })));
      expect(e.message).toMatch(/^monitorDsn: points at PoolBench's own database server/);
    }
    const sameName = await fail(
      admin().target.create(
        target({ monitorDsn: `postgresql://x:y@127.0.0.1:6543${own.pathname}` }),
      ),
    );
    expect(sameName.message).toMatch(/^monitorDsn: points at PoolBench's own database "/);
    const notAllowed = await fail(
      admin().target.create(target({ monitorDsn: 'postgresql://x:y@db.elsewhere.test/app' })),
    );
    expect(notAllowed.message).toMatch(
      /^monitorDsn: db\.elsewhere\.test is not on the team allowlist/,
    );
    const viaSocket = await fail(
      admin().target.create(
        target({
          monitorDsn: 'postgresql://x:y@db.netsec.example.test/app?host=/var/run/postgresql',
        }),
      ),
    );
    expect(viaSocket.message).toMatch(/^monitorDsn: the "host" parameter is not allowed/);
    await admin().team.allow({ pattern: 'db.netsec.example.test' });
    await expect(
      admin().target.create(target({ monitorDsn: 'postgresql://x:y@db.netsec.example.test/app' })),
    ).resolves.toMatchObject({ hasMonitorDsn: true });
  });

  it("refuses the installation's own services by every spelling, even with loopback allowed", async () => {
    // the services of `make up`'s environment (scripts/lib.sh), whatever the test runner has
    vi.stubEnv('DATABASE_URL', 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench');
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:63799');
    vi.stubEnv('SMTP_URL', 'smtp://127.0.0.1:54025');
    try {
      for (const pattern of ['127.0.0.0/8', '::1', '0.0.0.0'])
        await admin().team.allow({ pattern });
      const own = (field: string, service: string) =>
        new RegExp(
          `^${field.replace('.', '\\.')}: .* is the installation's own ${service.replace(/[()]/g, '\\$&')}; PoolBench never`,
        );
      for (const [url, service] of [
        ['http://127.0.0.1:63799/', 'Redis (REDIS_URL)'],
        ['http://localhost:54329/', 'Postgres (DATABASE_URL)'],
        ['http://[::1]:33069/', 'lab MariaDB (LAB_MARIADB_URL)'],
        ['http://[::ffff:127.0.0.1]:54025/', 'SMTP server (SMTP_URL)'],
        ['http://0.0.0.0:54026/api/v1/messages', 'mail catcher API (MAILPIT_HTTP_PORT)'],
        ['http://127.0.0.2:3000/', 'web app (PORT)'],
        ['http://127.0.0.1:9464/metrics', 'worker ops port (WORKER_HEALTH_PORT)'],
      ] as const) {
        const base = await fail(admin().target.create(target({ baseUrls: [url] })));
        expect(base.code, url).toBe('BAD_REQUEST');
        expect(base.message, url).toMatch(own('baseUrls.0', service));
        for (const field of ['metricsUrl', 'applyHookUrl'] as const) {
          const side = await fail(
            admin().target.create(target({ baseUrls: ['http://127.0.0.1:8080'], [field]: url })),
          );
          expect(side.message, `${field} ${url}`).toMatch(own(field, service));
        }
      }
      const dsn = await fail(
        admin().target.create(
          target({
            baseUrls: ['http://127.0.0.1:8080'],
            monitorDsn: 'postgresql://x:y@[::1]:63799/x',
          }),
        ),
      );
      expect(dsn.message).toMatch(own('monitorDsn', 'Redis (REDIS_URL)'));
      const hook = await fail(
        admin().schedule.setNotify({
          id: A.scheduleId,
          notifyOn: 'always',
          webhookFormat: 'generic',
          webhookUrl: 'http://127.0.0.3:54026/api/v1/messages',
          webhookSecret: 'whsec-0123456789abcdef',
          baselineName: '',
          removeWebhook: false,
          settleUpToRepeats: null,
        }),
      );
      expect(hook.message).toMatch(own('webhookUrl', 'mail catcher API (MAILPIT_HTTP_PORT)'));
      // another port of this machine (a lab target, a team's own service) is the team's to allow
      const ok = await admin().target.create(target({ baseUrls: ['http://127.0.0.1:8080'] }));
      // a target saved before this rule: the connection test refuses it without connecting
      await db.target.update({
        where: { id: ok.id },
        data: { baseUrls: ['http://localhost:63799'] },
      });
      const probe = await fail(admin().target.testConnection({ id: ok.id }));
      expect(probe.message).toMatch(own('baseUrls.0', 'Redis (REDIS_URL)'));
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
