import { z } from 'zod';

const int = (min: number, max: number, unit = '') =>
  z
    .number({ error: `must be a number${unit ? ` of ${unit}` : ''}` })
    .int('must be a whole number')
    .min(min, `must be at least ${min}${unit === 'milliseconds' ? ' ms' : ''}`)
    .max(max, `must be at most ${max}${unit === 'milliseconds' ? ' ms' : ''}`);

export const BALANCING_MODES = ['k6-round-robin', 'nginx'] as const;
export type BalancingMode = (typeof BALANCING_MODES)[number];

/** The program that serves the lab target's HTTP contract (docs/runtimes.md). */
export const RUNTIMES = ['go', 'java-hikari', 'bun', 'php-fpm'] as const;
export type Runtime = (typeof RUNTIMES)[number];
export const RUNTIME_LABELS: Record<Runtime, string> = {
  go: 'Go (pgx / database/sql)',
  'java-hikari': 'Java + HikariCP',
  bun: 'Bun (Bun.sql)',
  'php-fpm': 'PHP-FPM + nginx (PDO)',
};

export const CPU_ISOLATION_MODES = ['auto', 'off'] as const;
export type CpuIsolationMode = (typeof CPU_ISOLATION_MODES)[number];

/** The lab database a managed target reads: the worker's Postgres, or its MariaDB (seed 001's MySQL). */
export const LAB_DATABASES = ['postgres', 'mariadb'] as const;
export type LabDatabase = (typeof LAB_DATABASES)[number];

/**
 * The environment a managed (lab) target runs in, set by the worker for each run: what the seed
 * write-ups varied by hand around the app (network to the blob store and to Postgres, a database
 * connection ceiling, CPU, a load balancer). Every field is optional: absent = loopback, no limit,
 * all cores, k6 round robin. A target stores defaults; a pool config may override single fields,
 * so one experiment can compare e.g. a local database with a 50 ms link.
 */
export const LabEnvironmentSchema = z.strictObject({
  /** added once per new connection to the blob store, before its TLS handshake (seed 000's network to MinIO) */
  blobstoreDelayMs: int(0, 10_000, 'milliseconds').optional(),
  /** round trip added between the target and Postgres, half each way on every byte (seed 001's remote database) */
  dbLinkRttMs: int(0, 10_000, 'milliseconds').optional(),
  /** the target connects as a per-run role with this CONNECTION LIMIT (seed 004's "too many clients", SQLSTATE 53300) */
  roleConnectionLimit: int(1, 1000).optional(),
  /** GOMAXPROCS of each target instance: the CPU limit without cgroups (seed 002's GOMAXPROCS=1) */
  cpuLimit: int(1, 64).optional(),
  /** how load reaches several instances: k6 round robin over their URLs, or a real nginx in front (seeds 000 and 002) */
  balancing: z
    .enum(BALANCING_MODES, { error: `must be one of ${BALANCING_MODES.join(', ')}` })
    .optional(),
  /** the program serving the target (absent = go, the reference lab target) */
  runtime: z.enum(RUNTIMES, { error: `must be one of ${RUNTIMES.join(', ')}` }).optional(),
  /**
   * load generator and target on separate CPUs where the machine allows (absent = auto); "off"
   * lets them share every CPU, e.g. to measure what isolation changes
   */
  cpuIsolation: z
    .enum(CPU_ISOLATION_MODES, { error: `must be one of ${CPU_ISOLATION_MODES.join(', ')}` })
    .optional(),
  /** the lab database (absent = postgres) */
  database: z
    .enum(LAB_DATABASES, { error: `must be one of ${LAB_DATABASES.join(', ')}` })
    .optional(),
});
export type LabEnvironment = z.infer<typeof LabEnvironmentSchema>;

/** The run's environment: the target's defaults, then the pool config's fields on top. */
export function resolveLabEnvironment(
  target: LabEnvironment | null | undefined,
  poolConfig: LabEnvironment | null | undefined,
): LabEnvironment {
  const out: LabEnvironment = { ...(target ?? {}) };
  for (const [k, v] of Object.entries(poolConfig ?? {}))
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** One short line for lists and run pages: "link RTT 50 ms, GOMAXPROCS 1, nginx". Empty when nothing is set. */
export function describeLabEnvironment(env: LabEnvironment | null | undefined): string {
  if (!env) return '';
  const parts: string[] = [];
  if (env.runtime !== undefined && env.runtime !== 'go') parts.push(RUNTIME_LABELS[env.runtime]);
  if (env.database === 'mariadb') parts.push('MariaDB');
  if (env.cpuIsolation === 'off') parts.push('CPU isolation off');
  if (env.blobstoreDelayMs !== undefined)
    parts.push(`blob store +${env.blobstoreDelayMs} ms per connection`);
  if (env.dbLinkRttMs !== undefined) parts.push(`database link RTT ${env.dbLinkRttMs} ms`);
  if (env.roleConnectionLimit !== undefined)
    parts.push(`role connection limit ${env.roleConnectionLimit}`);
  if (env.cpuLimit !== undefined) parts.push(`GOMAXPROCS ${env.cpuLimit}`);
  if (env.balancing === 'nginx') parts.push('nginx in front');
  return parts.join(', ');
}
