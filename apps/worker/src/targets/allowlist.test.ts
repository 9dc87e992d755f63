import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkWebhookHost } from '../notify/deliver-notifications';
import { checkAllowed, resolveHosts } from './allowlist';

/** the team-level rules alone: as if the installation had opened every range */
const ALL = { opened: 'all' as const };
import { checkMonitorDsn } from './monitor-dsn';
import { resolveAndPin } from './resolve-and-pin';

describe('allowlist', () => {
  it('allows addresses by IP, CIDR, or by name when the address is public', () => {
    expect(() =>
      checkAllowed([{ host: '203.0.113.9', addresses: ['203.0.113.9'] }], ['203.0.113.0/24'], ALL),
    ).not.toThrow();
    expect(() =>
      checkAllowed(
        [{ host: 'api.example.com', addresses: ['93.184.216.34'] }],
        ['*.example.com'],
        ALL,
      ),
    ).not.toThrow();
    expect(() =>
      checkAllowed(
        [{ host: 'api.example.com', addresses: ['93.184.216.34'] }],
        ['example.com'],
        ALL,
      ),
    ).toThrow(/not allowed/);
  });

  it('refuses a permitted name that resolves into a private range (DNS pointing inward)', () => {
    expect(() =>
      checkAllowed(
        [{ host: 'api.example.com', addresses: ['10.1.2.3'] }],
        ['api.example.com'],
        ALL,
      ),
    ).toThrow(/load to api\.example\.com \(10\.1\.2\.3\) is not allowed.*add 10\.1\.2\.3/);
  });

  it('allows loopback only for managed runs', () => {
    const lo = [{ host: '127.0.0.1', addresses: ['127.0.0.1'] }];
    expect(() => checkAllowed(lo, [], ALL)).toThrow(/not allowed/);
    expect(() => checkAllowed(lo, [], { opened: [], allowLoopback: true })).not.toThrow();
  });

  it('resolves localhost and names every unresolvable host', async () => {
    const r = await resolveHosts(['http://localhost:1234/x', 'http://127.0.0.1:5/']);
    expect(r.find((h) => h.host === 'localhost')!.addresses.length).toBeGreaterThan(0);
    await expect(resolveHosts(['http://no-such-host.invalid/'])).rejects.toThrow(
      /cannot resolve no-such-host\.invalid/,
    );
  });

  it('refuses names resolving to special ranges the old list missed, and IPv4 inside IPv6', () => {
    for (const addr of [
      '::',
      '64:ff9b::7f00:1',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2001::1',
      '100::1',
      '2001:db8::1',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.1',
      '255.255.255.255',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(
        () =>
          checkAllowed([{ host: 'api.example.com', addresses: [addr] }], ['api.example.com'], ALL),
        addr,
      ).toThrow(/not allowed/);
    }
    expect(() =>
      checkAllowed([{ host: 'x', addresses: ['::ffff:127.0.0.1'] }], ['127.0.0.1'], ALL),
    ).not.toThrow();
  });

  it('never allows link-local or cloud metadata, even when an old allowlist entry covers it', () => {
    expect(() =>
      checkAllowed(
        [{ host: '169.254.169.254', addresses: ['169.254.169.254'] }],
        ['0.0.0.0/0'],
        ALL,
      ),
    ).toThrow(/never allowed.*link-local/);
    expect(() =>
      checkAllowed([{ host: 'm', addresses: ['fd00:ec2::254'] }], ['fd00::/8'], ALL),
    ).toThrow(/never allowed.*metadata/);
    // a NAT64 address reaches the IPv4 in its last 32 bits through the translator
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a9fe:a9fe'] }], ['64:ff9b::/96'], ALL),
    ).toThrow(/never allowed.*link-local/);
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a00:1'] }], ['192.168.0.0/16'], ALL),
    ).toThrow(/not allowed for this team \(private address\)/);
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a00:1'] }], ['10.0.0.0/8'], ALL),
    ).not.toThrow();
  });

  it('reaches a special-purpose address only inside a range the installation opened, whatever the team allowed', async () => {
    const lo = [{ host: '127.0.0.1', addresses: ['127.0.0.1'] }];
    // an entry saved before the installation had a say: refused until a range holding it is opened
    expect(() => checkAllowed(lo, ['127.0.0.1'], { opened: [] })).toThrow(
      /^load to 127\.0\.0\.1 \(127\.0\.0\.1\) is not allowed: 127\.0\.0\.1 is a loopback address outside every range this installation opened to teams; an installation admin can open one that holds it/,
    );
    expect(() => checkAllowed(lo, ['127.0.0.0/8'], { opened: ['10.0.0.0/8'] })).toThrow(
      /outside every range this installation opened/,
    );
    expect(() => checkAllowed(lo, ['127.0.0.1'], { opened: ['127.0.0.0/8'] })).not.toThrow();
    // the IPv4 a mapped or NAT64 form carries is what is judged
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a00:1'] }], ['10.0.0.0/8'], {
        opened: ['127.0.0.0/8'],
      }),
    ).toThrow(/10\.0\.0\.1 is a private address outside every range/);
    // an opened range is not an allowlist entry: the team still has to allow the address
    expect(() => checkAllowed(lo, [], { opened: ['127.0.0.0/8'] })).toThrow(
      /not allowed for this team \(loopback address\)/,
    );
    // public addresses need no opening
    expect(() =>
      checkAllowed([{ host: '203.0.113.9', addresses: ['93.184.216.34'] }], ['93.184.216.0/24'], {
        opened: [],
      }),
    ).not.toThrow();
    // a webhook: the same two levels, retried (an admin may open the range)
    await expect(checkWebhookHost('127.0.0.1', 8080, ['127.0.0.1'], [])).rejects.toThrow(
      /^webhook to 127\.0\.0\.1 is not allowed: 127\.0\.0\.1 is a loopback address outside every range this installation opened/,
    );
    await expect(checkWebhookHost('127.0.0.1', 8080, ['127.0.0.1'], ['127.0.0.0/8'])).resolves.toBe(
      '127.0.0.1',
    );
  });

  it('pins each host to one checked address; k6 may reach exactly those (127.0.0.2 and 10.1.2.4 blocked)', async () => {
    const plan = await resolveAndPin({
      loadUrls: [['baseUrls.0', 'http://127.0.0.1:8080']],
      probeUrls: [['metricsUrl', 'http://127.0.0.1:9090/metrics']],
      patterns: ['127.0.0.1'],
      opened: ['127.0.0.0/8'],
    });
    expect(plan.pins).toEqual([
      { host: '127.0.0.1', port: 8080, address: '127.0.0.1' },
      { host: '127.0.0.1', port: 9090, address: '127.0.0.1' },
    ]);
    expect(plan.k6Blacklist).toEqual(
      expect.arrayContaining(['127.0.0.0/32', '127.0.0.2/31', '127.0.0.4/30', '::/0']),
    );
    expect(plan.k6Blacklist).not.toContain('127.0.0.1/32');
    expect(plan.k6Hosts).toEqual({ '127.0.0.1:8080': '127.0.0.1:8080', '*': '0.0.0.0' });
    const ten = await resolveAndPin({
      loadUrls: [['baseUrls.0', 'http://10.1.2.3/']],
      probeUrls: [],
      patterns: ['10.1.2.3'],
      opened: ['10.0.0.0/8'],
    });
    expect(ten.k6Blacklist).toContain('10.1.2.4/30');
    expect(ten.k6Blacklist).toContain('10.1.2.2/32');
  });

  it('refuses credentials in URLs, naming the field, without echoing the password', async () => {
    const err = await resolveAndPin({
      loadUrls: [['baseUrls.0', 'http://127.0.0.1/']],
      probeUrls: [['applyHookUrl', 'http://bob:hunter2@127.0.0.1/apply']],
      patterns: ['127.0.0.1'],
      opened: ['127.0.0.0/8'],
    }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /^applyHookUrl: credentials in URLs are not allowed; use a secret header such as Authorization/,
    );
    expect((err as Error).message).not.toContain('hunter2');
  });
});

// At run time, whatever was saved and whatever the allowlist says: the services of `make up`'s
// environment (scripts/lib.sh), judged by the addresses the worker resolved and the port.
describe("the installation's own services at run time", () => {
  beforeAll(() => {
    vi.stubEnv('DATABASE_URL', 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench');
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:63799');
    vi.stubEnv('SMTP_URL', 'smtp://127.0.0.1:54025');
    vi.stubEnv('BETTER_AUTH_URL', 'http://localhost:3000');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
  const everything = ['127.0.0.0/8', '::1', '::ffff:0:0/96', '0.0.0.0/8', '10.0.0.0/8'];
  const pin = (url: string, allowLoopback = false, field = 'baseUrls.0') =>
    resolveAndPin({
      loadUrls: field === 'baseUrls.0' ? [[field, url]] : [['baseUrls.0', 'http://127.0.0.1:8080']],
      probeUrls: field === 'baseUrls.0' ? [] : [[field, url]],
      // the installation opened every range too: its own services stay refused
      patterns: everything,
      opened: everything,
      allowLoopback,
    }).then(
      () => null,
      (e: Error) => e.message,
    );
  const own = (service: string) =>
    new RegExp(`is the installation's own ${service.replace(/[()]/g, '\\$&')}; PoolBench never`);

  it('refuses every spelling of every service, even with loopback allowed', async () => {
    const iface = Object.values(networkInterfaces())
      .flatMap((l) => l ?? [])
      .find((i) => i.family === 'IPv4' && !i.internal)?.address;
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:63799/', 'Redis (REDIS_URL)'],
      ['http://localhost:54329/', 'Postgres (DATABASE_URL)'],
      ['http://127.0.0.2:33069/', 'lab MariaDB (LAB_MARIADB_URL)'],
      ['http://[::ffff:127.0.0.1]:54025/', 'SMTP server (SMTP_URL)'],
      ['http://0.0.0.0:54026/api/v1/messages', 'mail catcher API (MAILPIT_HTTP_PORT)'],
      ['http://127.1.2.3:3000/', 'web app (PORT)'],
      ['http://localhost:9464/metrics', 'worker ops port (WORKER_HEALTH_PORT)'],
      ...(iface ? [[`http://${iface}:63799/`, 'Redis (REDIS_URL)'] as [string, string]] : []),
    ];
    for (const [url, service] of cases) {
      for (const loop of [false, true])
        expect(await pin(url, loop), `${url} ${loop}`).toMatch(
          new RegExp(`^baseUrls\\.0: .*${own(service).source}`),
        );
      expect(await pin(url, false, 'metricsUrl'), url).toMatch(/^metricsUrl: .*installation's own/);
    }
    expect(await pin('http://[::ffff:7f00:1]:63799/')).toMatch(
      /^baseUrls\.0: \[::ffff:7f00:1\]:63799 \(127\.0\.0\.1\) is the installation's own Redis/,
    );
  });

  it("allows this machine's other ports: the lab target's, a team's own service", async () => {
    expect(await pin('http://127.0.0.1:8080/', true)).toBeNull();
    expect(await pin('http://localhost:41234/')).toBeNull();
    expect(await pin('http://127.0.0.2:5432/')).toBeNull();
  });

  it('refuses load addresses k6 could not hold to their port: an IPv6 literal of this machine, 0.0.0.0', async () => {
    for (const url of [
      'http://0.0.0.0:8080/',
      'http://0.0.0.1:8080/',
      'http://[::ffff:0.0.0.0]:8080/',
    ])
      expect(await pin(url), url).toMatch(
        /^load to .*:8080 \(0\.0\.0\.[01]\) is not allowed: 0\.0\.0\.[01] stands for this machine/,
      );
    expect(await pin('http://[::]:8080/')).toMatch(/^load to .* is not allowed/);
    expect(await pin('http://[::1]:8080/')).toMatch(
      /^load to \[::1\]:8080 is not allowed: k6 can hold an IPv6 address literal to its address but not its port, and the installation's own Postgres \(DATABASE_URL\) listens there/,
    );
    expect(await pin('http://[::ffff:127.0.0.1]:8080/')).toMatch(
      /^load to \[::ffff:7f00:1\]:8080 is not allowed: k6 can hold/,
    );
    // a service on another machine: that machine's address, in IPv6 form
    vi.stubEnv('LAB_MARIADB_URL', 'mysql://u:p@10.20.30.40:3306/lab');
    expect(await pin('http://[::ffff:10.20.30.40]:8080/')).toMatch(
      /is not allowed: k6 can hold .* own lab MariaDB \(LAB_MARIADB_URL\) listens there/,
    );
    expect(await pin('http://[::ffff:10.20.30.41]:8080/')).toBeNull();
    vi.stubEnv('LAB_MARIADB_URL', undefined);
  });

  it('refuses a monitor DSN and a webhook at a service, as the worker resolved them', async () => {
    const dsn = await checkMonitorDsn('postgresql://x:y@localhost:63799/x', {
      patterns: everything,
      opened: everything,
      ownDatabaseUrl: 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
    }).catch((e: Error) => e.message);
    expect(dsn).toMatch(
      /^monitorDsn: localhost:63799 \(127\.0\.0\.1\) is the installation's own Redis/,
    );
    await expect(checkWebhookHost('127.0.0.1', 54026, everything, everything)).rejects.toThrow(
      /^webhookUrl: 127\.0\.0\.1:54026 is the installation's own mail catcher API/,
    );
    await expect(checkWebhookHost('127.0.0.1', 8080, everything, everything)).resolves.toBe(
      '127.0.0.1',
    );
  });
});
