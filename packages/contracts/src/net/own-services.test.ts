import { describe, expect, it } from 'vitest';
import { parseIp, type IpNum } from './ip-math';
import { locateServices, ownServiceAt, ownServicesFromEnv } from './own-services';

// The environment `make up` writes (scripts/lib.sh) plus the worker's defaults.
const env = {
  DATABASE_URL: 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
  REDIS_URL: 'redis://127.0.0.1:63799',
  BETTER_AUTH_URL: 'http://localhost:3000',
  POOLBENCH_URL: 'http://localhost:3000',
  SMTP_URL: 'smtp://127.0.0.1:54025',
};
const interfaces = ['127.0.0.1', '::1', '10.1.2.3', 'fe80::1'].map((a) => parseIp(a)!);

/** The services with host names resolved as a resolver on this machine would. */
function located(e: Record<string, string | undefined> = env, ifs: IpNum[] = interfaces) {
  const resolve = (h: string) =>
    h === 'localhost' ? ['127.0.0.1', '::1'] : h === 'db.internal' ? ['10.9.9.9'] : [h];
  return locateServices(
    ownServicesFromEnv(e).map((s) => ({ ...s, addresses: resolve(s.host) })),
    ifs,
  );
}

const at = (address: string, port: number, e?: Record<string, string | undefined>) =>
  ownServiceAt(address, port, located(e), interfaces)?.name ?? null;

describe("the installation's own services", () => {
  it('are read from the environment, with the defaults the apps and infra/services.sh use', () => {
    expect(ownServicesFromEnv(env).map((s) => `${s.name} ${s.host}:${s.port}`)).toEqual([
      'Postgres (DATABASE_URL) 127.0.0.1:54329',
      'Redis (REDIS_URL) 127.0.0.1:63799',
      'lab MariaDB (LAB_MARIADB_URL) 127.0.0.1:33069',
      'SMTP server (SMTP_URL) 127.0.0.1:54025',
      'mail catcher SMTP (MAILPIT_SMTP_PORT) 0.0.0.0:54025',
      'mail catcher API (MAILPIT_HTTP_PORT) 0.0.0.0:54026',
      'web app (PORT) 0.0.0.0:3000',
      'web app (BETTER_AUTH_URL) localhost:3000',
      'worker ops port (WORKER_HEALTH_PORT) 0.0.0.0:9464',
    ]);
    const other = ownServicesFromEnv({
      DATABASE_URL: 'postgres://u:p@db.internal/app',
      REDIS_URL: 'rediss://cache.internal',
      LAB_DATABASE_URL: 'postgres://u:p@lab.internal:6000/lab',
      LAB_MARIADB_URL: 'mariadb://u:p@[::1]/lab',
      SMTP_URL: 'smtps://mail.example.com',
      MAILPIT_HTTP_PORT: '8025',
      PORT: '8080',
      BETTER_AUTH_URL: 'https://poolbench.example.com',
      WORKER_HEALTH_PORT: '0',
    });
    expect(other.map((s) => `${s.host}:${s.port}`)).toEqual([
      'db.internal:5432',
      'cache.internal:6379',
      'lab.internal:6000',
      '::1:3306',
      'mail.example.com:465',
      '0.0.0.0:54025',
      '0.0.0.0:8025',
      '0.0.0.0:8080',
      'poolbench.example.com:443',
    ]);
  });

  it('are found by every spelling of this machine: loopback, IPv6 forms, 0.0.0.0, interfaces', () => {
    for (const address of [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.255.254',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:2',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '0.0.0.0',
      '::',
      '::ffff:0.0.0.0',
      '10.1.2.3',
      '::ffff:10.1.2.3',
    ]) {
      expect(at(address, 63799), address).toBe('Redis (REDIS_URL)');
      expect(at(address, 54329), address).toBe('Postgres (DATABASE_URL)');
      expect(at(address, 33069), address).toBe('lab MariaDB (LAB_MARIADB_URL)');
      expect(at(address, 54025), address).toBe('SMTP server (SMTP_URL)');
      expect(at(address, 54026), address).toBe('mail catcher API (MAILPIT_HTTP_PORT)');
      expect(at(address, 3000), address).toBe('web app (PORT)');
      expect(at(address, 9464), address).toBe('worker ops port (WORKER_HEALTH_PORT)');
    }
  });

  it("leaves other ports of this machine and other machines' addresses alone", () => {
    // the lab target's own port, a team's service on loopback
    for (const [address, port] of [
      ['127.0.0.1', 8080],
      ['::1', 41234],
      ['127.0.0.2', 5432],
      ['10.1.2.4', 63799],
      ['93.184.216.34', 3000],
      ['::ffff:93.184.216.34', 54329],
    ] as const)
      expect(at(address, port), `${address}:${port}`).toBeNull();
  });

  it('on another machine: its own addresses and port, in any IPv4-in-IPv6 form', () => {
    const e = { ...env, DATABASE_URL: 'postgres://u:p@db.internal:5432/app' };
    expect(at('10.9.9.9', 5432, e)).toBe('Postgres (DATABASE_URL)');
    expect(at('::ffff:10.9.9.9', 5432, e)).toBe('Postgres (DATABASE_URL)');
    expect(at('10.9.9.9', 5433, e)).toBeNull();
    // not on this machine: loopback at that port is something else
    expect(at('127.0.0.1', 5432, e)).toBeNull();
  });

  it('a service configured on an interface address counts as this machine', () => {
    const e = { ...env, REDIS_URL: 'redis://10.1.2.3:6380' };
    expect(at('127.0.0.5', 6380, e)).toBe('Redis (REDIS_URL)');
    expect(at('::1', 6380, e)).toBe('Redis (REDIS_URL)');
  });
});
