import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TRPCError } from '@trpc/server';
import { DEMO_EMAIL, type Db } from '@poolbench/db';
import { withTempDatabase } from '~/test/temp-database';
import { callerFor, makeServices, makeTeam, type TeamFixture } from '~/test/fixtures';
import { isInstallationAdmin } from './installation-admin';

// Real Postgres, through tRPC: the installation's admin decides which special-purpose ranges
// teams may allowlist; a team admin (every new account is one) cannot open them.
describe('two levels of trust: installation admin and team admin', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let services: ReturnType<typeof makeServices>;
  let first: TeamFixture;
  let newcomer: TeamFixture;
  const fail = (p: Promise<unknown>) =>
    p.then(
      () => expect.unreachable('should be refused'),
      (e: unknown) => e as TRPCError,
    );
  const installationAdmin = () => callerFor(db, services, first.users.owner, first.teamId);
  const newAccount = () => callerFor(db, services, newcomer.users.owner, newcomer.teamId);

  beforeAll(async () => {
    ({ db, dispose } = await withTempDatabase('web_trust'));
    services = makeServices();
    // the seeded demo login (public password) exists before anyone signs up: it never counts
    await db.user.create({ data: { id: 'demo-user', name: 'Demo', email: DEMO_EMAIL } });
    first = await makeTeam(db, 'first'); // its owner is the installation's first account
    newcomer = await makeTeam(db, 'newcomer'); // a later sign-up: admin of its own team only
  });
  afterAll(async () => {
    await services?.close();
    await dispose?.();
  });

  it('a new account cannot allowlist loopback or any other range the installation did not open', async () => {
    for (const pattern of ['127.0.0.1', '127.0.0.0/8', '::1', '10.0.0.0/8', '192.168.1.10']) {
      const e = await fail(newAccount().team.allow({ pattern }));
      expect(e.code, pattern).toBe('BAD_REQUEST');
      expect(e.message, pattern).toMatch(
        /^pattern: .* is outside every range this installation opened to teams; an installation admin must open it first \(Settings → Installation\)$/,
      );
    }
    expect((await fail(newAccount().team.allow({ pattern: '127.0.0.1' }))).message).toBe(
      'pattern: 127.0.0.1 (loopback) is outside every range this installation opened to teams; an installation admin must open it first (Settings → Installation)',
    );
    // public hosts need nobody's opening
    await newAccount().team.allow({ pattern: 'api.example.com' });
    await newAccount().team.allow({ pattern: '93.184.216.0/24' });
    // nor can it save a target on loopback, nor open the range itself
    const t = await fail(
      newAccount().target.create({
        kind: 'url',
        name: 'local',
        baseUrls: ['http://127.0.0.1:8080'],
        requestDefaults: { method: 'GET', path: '/' },
      }),
    );
    expect(t.message).toMatch(/^127\.0\.0\.1 is not on the team allowlist/);
    expect((await newAccount().installation.me()).admin).toBe(false);
    for (const call of [
      () => newAccount().installation.open({ cidr: '127.0.0.0/8' }),
      () => newAccount().installation.ranges(),
    ])
      expect((await fail(call())).code).toBe('FORBIDDEN');
  });

  it('the installation admin opens 127.0.0.0/8, then a team admin can allow inside it and nothing beyond', async () => {
    expect((await installationAdmin().installation.me()).admin).toBe(true);
    const opened = await installationAdmin().installation.open({
      cidr: '127.0.0.0/8',
      note: 'self-hosted services',
    });
    expect(opened.cidr).toBe('127.0.0.0/8');
    expect(await installationAdmin().installation.ranges()).toEqual([
      expect.objectContaining({ cidr: '127.0.0.0/8', holds: '16,777,216 addresses, loopback' }),
    ]);
    await newAccount().team.allow({ pattern: '127.0.0.1' });
    await expect(
      newAccount().target.create({
        kind: 'url',
        name: 'local',
        baseUrls: ['http://127.0.0.1:8080'],
        requestDefaults: { method: 'GET', path: '/' },
      }),
    ).resolves.toMatchObject({ name: 'local' });
    expect((await fail(newAccount().team.allow({ pattern: '10.0.0.0/8' }))).message).toMatch(
      /^pattern: 10\.0\.0\.0\/8 \(private\) is outside every range/,
    );
    // the installation's own services stay refused with the range open
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:63799');
    try {
      const e = await fail(
        newAccount().target.create({
          kind: 'url',
          name: 'redis',
          baseUrls: ['http://127.0.0.1:63799'],
          requestDefaults: { method: 'GET', path: '/' },
        }),
      );
      expect(e.message).toMatch(/127\.0\.0\.1:63799 is the installation's own Redis/);
    } finally {
      vi.unstubAllEnvs();
    }
    // link-local, metadata and public ranges are not the installation's to open
    for (const [cidr, why] of [
      ['169.254.0.0/16', /can never be opened/],
      ['fd00::/8', /metadata.*can never be opened/],
      ['8.8.8.0/24', /only public addresses/],
      ['10.0.0.0/7', /wider than \/8/],
    ] as const)
      expect((await fail(installationAdmin().installation.open({ cidr }))).message, cidr).toMatch(
        why,
      );
    // closed again: the team's entry stays, marked as reaching nothing special
    await installationAdmin().installation.close({ id: opened.id });
    const list = await newAccount().team.allowlist();
    expect(list.find((h) => h.pattern === '127.0.0.1')?.unopened).toMatch(
      /outside every range this installation opened/,
    );
    expect(list.find((h) => h.pattern === 'api.example.com')?.unopened).toBeNull();
  });

  it('an address named in POOLBENCH_INSTALLATION_ADMINS counts once it is verified', async () => {
    const named = { ...newcomer.users.admin };
    expect(await isInstallationAdmin(db, { ...named, emailVerified: false }, [named.email])).toBe(
      false,
    );
    expect(await isInstallationAdmin(db, { ...named, emailVerified: true }, [named.email])).toBe(
      true,
    );
    expect(await isInstallationAdmin(db, { ...named, emailVerified: true }, [])).toBe(false);
    // the demo login, created first, is never the installation's first account
    expect(
      await isInstallationAdmin(
        db,
        { id: 'demo-user', email: DEMO_EMAIL, emailVerified: true },
        [],
      ),
    ).toBe(false);
  });
});
