// Flags of `lab-target-bun serve`: the lab target's names (docs/runtimes.md), only those Bun honours.
export class UsageError extends Error {}

export const BUN_STRATEGIES = ['per-request', 'lazy', 'fixed', 'prewarm'] as const;
export type BunStrategy = (typeof BUN_STRATEGIES)[number];

export interface BunConfig {
  strategy: BunStrategy;
  host: string;
  port: number;
  databaseUrl: string;
  instanceId: string;
  applicationName: string;
  maxConns: number;
  acquireTimeoutMs: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  maxLifetimeMs: number;
  statementTimeoutMs: number;
  keepaliveMs: number;
  requestTimeoutMs: number;
  maxWorkMs: number;
  maxRows: number;
  shutdownTimeoutMs: number;
}

const DURATIONS: Record<string, keyof BunConfig> = {
  'acquire-timeout': 'acquireTimeoutMs',
  'connect-timeout': 'connectTimeoutMs',
  'idle-timeout': 'idleTimeoutMs',
  'max-lifetime': 'maxLifetimeMs',
  'statement-timeout': 'statementTimeoutMs',
  keepalive: 'keepaliveMs',
  'request-timeout': 'requestTimeoutMs',
  'max-work': 'maxWorkMs',
  'shutdown-timeout': 'shutdownTimeoutMs',
};
const INTS: Record<string, keyof BunConfig> = { 'max-conns': 'maxConns', 'max-rows': 'maxRows' };
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `250ms`, `2s`, `1m`, or a bare number of ms. */
export function parseDuration(flag: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!m)
    throw new UsageError(
      `invalid --${flag} ${raw}: not a duration (e.g. 250ms, 2s, or a number of ms)`,
    );
  return Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']!);
}

/**
 * `env` supplies the database URL when no `--database-url` is given (`LAB_DATABASE_URL`, as the Go
 * and Java targets read it): the worker passes the run's password that way, never in argv.
 */
export function parseServeFlags(
  args: string[],
  env: Record<string, string | undefined> = {},
): BunConfig {
  const cfg: BunConfig = {
    strategy: 'lazy',
    host: '127.0.0.1',
    port: 8080,
    databaseUrl: '',
    instanceId: '0',
    applicationName: '',
    maxConns: 10,
    acquireTimeoutMs: 0,
    connectTimeoutMs: 5000,
    idleTimeoutMs: 30 * 60_000,
    maxLifetimeMs: 3_600_000,
    statementTimeoutMs: 0,
    keepaliveMs: 30_000,
    requestTimeoutMs: 60_000,
    maxWorkMs: 30_000,
    maxRows: 100_000,
    shutdownTimeoutMs: 10_000,
  };
  for (const a of args) {
    const m = /^--([a-z-]+)=(.*)$/.exec(a);
    if (!m) throw new UsageError(`invalid argument ${a}: flags are --name=value`);
    const [, flag, value] = m as unknown as [string, string, string];
    if (flag === 'strategy') {
      if (!(BUN_STRATEGIES as readonly string[]).includes(value))
        throw new UsageError(
          `invalid --strategy ${value}: not supported by the bun runtime (supported: ${BUN_STRATEGIES.join(', ')})`,
        );
      cfg.strategy = value as BunStrategy;
    } else if (flag === 'listen') {
      const hm = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(value);
      if (!hm) throw new UsageError(`invalid --listen ${value}: expected host:port`);
      cfg.host = hm[1]!.replace(/^\[|\]$/g, '');
      cfg.port = Number(hm[2]);
    } else if (flag === 'database-url') {
      if (!/^(postgres|postgresql|mysql|mariadb):\/\//.test(value))
        throw new UsageError(
          `invalid --database-url: must start with postgres://, postgresql://, mysql:// or mariadb://`,
        );
      cfg.databaseUrl = value;
    } else if (flag === 'instance-id') cfg.instanceId = value;
    else if (flag === 'application-name') cfg.applicationName = value;
    else if (flag in DURATIONS) (cfg[DURATIONS[flag]!] as number) = parseDuration(flag, value);
    else if (flag in INTS) {
      if (!/^\d+$/.test(value) || Number(value) < 1)
        throw new UsageError(`invalid --${flag} ${value}: must be a whole number of at least 1`);
      (cfg[INTS[flag]!] as number) = Number(value);
    } else
      throw new UsageError(
        `unknown flag --${flag}: the bun runtime does not honour it (docs/runtimes.md)`,
      );
  }
  if (!cfg.databaseUrl && env.LAB_DATABASE_URL) {
    if (!/^(postgres|postgresql|mysql|mariadb):\/\//.test(env.LAB_DATABASE_URL))
      throw new UsageError(
        'invalid LAB_DATABASE_URL: must start with postgres://, postgresql://, mysql:// or mariadb://',
      );
    cfg.databaseUrl = env.LAB_DATABASE_URL;
  }
  if (!cfg.databaseUrl) throw new UsageError('--database-url is required (or LAB_DATABASE_URL)');
  if (!cfg.applicationName) cfg.applicationName = `labtarget-${cfg.instanceId}`;
  return cfg;
}
