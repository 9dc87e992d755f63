import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// What `make up` and `make test` start (infra/services.sh), checked on the running services with
// the environment the scripts write (.data/poolbench.env, loaded by scripts/lib.sh load_env).
const REDIS_URL = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:63799');
const MAILPIT_URL = new URL(process.env.MAILPIT_URL ?? 'http://127.0.0.1:54026');

/** redis-cli against the installation's Redis; the password goes in its environment, not argv */
function redis(args: string[], auth: { user: string; password: string } | null) {
  const r = spawnSync(
    'redis-cli',
    [
      '-h',
      REDIS_URL.hostname,
      '-p',
      REDIS_URL.port || '6379',
      ...(auth ? ['--user', auth.user, '--no-auth-warning'] : []),
      ...args,
    ],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...(auth ? { REDISCLI_AUTH: auth.password } : {}) },
      timeout: 10_000,
    },
  );
  return `${r.stdout}${r.stderr}`.trim();
}
const app = {
  user: decodeURIComponent(REDIS_URL.username),
  password: decodeURIComponent(REDIS_URL.password),
};

describe("the services make up starts: what a process on this machine can do without the installation's credentials", () => {
  it('Redis refuses a client without the password', () => {
    expect(app.password, 'REDIS_URL carries the app user and its password').not.toBe('');
    expect(redis(['PING'], null)).toMatch(/NOAUTH Authentication required/);
    expect(redis(['CONFIG', 'GET', 'dir'], null)).toMatch(/NOAUTH/);
    expect(redis(['PING'], { user: 'default', password: '' })).toMatch(/WRONGPASS|NOAUTH/);
    expect(redis(['PING'], { ...app, password: `${app.password}x` })).toMatch(/WRONGPASS/);
  });

  it("Redis refuses CONFIG, DEBUG and the other dangerous commands to the app's user, and serves what BullMQ needs", () => {
    // never sent to a Redis that takes anyone: the password check comes first
    expect(app.password, 'REDIS_URL carries the app user and its password').not.toBe('');
    expect(redis(['PING'], app)).toBe('PONG');
    for (const cmd of [
      ['CONFIG', 'GET', 'dir'],
      ['CONFIG', 'SET', 'dir', '/tmp'],
      ['DEBUG', 'SLEEP', '0'],
      ['MODULE', 'LIST'],
      ['ACL', 'LIST'],
      ['FLUSHALL'],
      ['KEYS', '*'],
      ['MONITOR'],
    ])
      // DEBUG and MODULE are also off for every user (enable-debug-command, enable-module-command)
      expect(redis(cmd, app), cmd.join(' ')).toMatch(/NOPERM|command not allowed/);
    expect(redis(['INFO', 'server'], app)).toMatch(/redis_version:/);
    expect(redis(['CLIENT', 'LIST'], app)).toMatch(/user=/);
    expect(redis(['EVAL', "return redis.call('TIME')[1] ~= nil", '0'], app)).toBe('1');
    // a Lua script runs as its caller: no way around the ACL through EVAL
    expect(redis(['EVAL', "return redis.call('KEYS', 'pb-none-*')", '0'], app)).toMatch(
      /NOPERM|user executing the script can.t run this command/,
    );
  });

  it("Mailpit's inbox and API answer 401 without the installation's credentials", async () => {
    const bare = `${MAILPIT_URL.protocol}//${MAILPIT_URL.host}`;
    expect(MAILPIT_URL.password, 'MAILPIT_URL carries the credentials').not.toBe('');
    for (const path of ['/api/v1/messages', '/api/v1/info', '/'])
      expect((await fetch(`${bare}${path}`)).status, path).toBe(401);
    const wrong = Buffer.from(`${MAILPIT_URL.username}:nope`).toString('base64');
    expect(
      (await fetch(`${bare}/api/v1/messages`, { headers: { Authorization: `Basic ${wrong}` } }))
        .status,
    ).toBe(401);
    const right = Buffer.from(
      `${decodeURIComponent(MAILPIT_URL.username)}:${decodeURIComponent(MAILPIT_URL.password)}`,
    ).toString('base64');
    expect(
      (await fetch(`${bare}/api/v1/messages`, { headers: { Authorization: `Basic ${right}` } }))
        .status,
    ).toBe(200);
  });

  it('listens on loopback only: Postgres, Redis, MariaDB and Mailpit', () => {
    const ports = [
      Number(new URL(process.env.DATABASE_URL ?? 'postgresql://x@127.0.0.1:54329/x').port),
      Number(REDIS_URL.port),
      Number(process.env.MARIADB_PORT ?? 33069),
      Number(process.env.MAILPIT_SMTP_PORT ?? 54025),
      Number(MAILPIT_URL.port),
    ];
    const sockets = spawnSync('ss', ['-Hltn'], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((l) => l.trim().split(/\s+/)[3])
      .filter((a): a is string => Boolean(a));
    for (const port of ports) {
      const local = sockets.filter((a) => a.endsWith(`:${port}`));
      for (const a of local) expect(a, `port ${port}`).toMatch(/^(127\.0\.0\.1|\[::1\]):\d+$/);
    }
    // Postgres, Redis and Mailpit always run under make up and make test
    for (const port of [ports[0], ports[1], ports[4]])
      expect(
        sockets.some((a) => a.endsWith(`:${port}`)),
        `port ${port} listens`,
      ).toBe(true);
  });
});
