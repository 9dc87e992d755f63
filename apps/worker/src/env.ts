import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SERVICE_DEFAULTS } from '@poolbench/contracts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Worker configuration; every variable is documented in apps/worker/README.md. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().default(SERVICE_DEFAULTS.DATABASE_URL),
  REDIS_URL: z.string().url().default(SERVICE_DEFAULTS.REDIS_URL),
  WORKER_ID: z.string().min(1).optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  WORKER_HEARTBEAT_MS: z.coerce.number().int().min(200).default(5000),
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(20_000),
  WORKER_HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(SERVICE_DEFAULTS.WORKER_HEALTH_PORT),
  POOLBENCH_K6_BIN: z.string().default(join(REPO, 'packages/k6/bin/k6')),
  // How long k6's output keeps a second open for late samples (run-k6 reads it; k6's default 1 000).
  POOLBENCH_OUTPUT_GRACE_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  LAB_TARGET_BIN: z.string().default(join(REPO, 'apps/lab-targets/go/bin/lab-target')),
  LAB_DATABASE_URL: z.string().url().default(SERVICE_DEFAULTS.LAB_DATABASE_URL),
  // The runtimes of docs/runtimes.md and the MariaDB lab database (infra/services.sh starts it on 33069).
  LAB_MARIADB_URL: z.string().url().default(SERVICE_DEFAULTS.LAB_MARIADB_URL),
  // Shape databases no live target uses are dropped this many days after their last run
  // (apps/worker/src/targets/lab-shapes.ts); only those this installation alone recorded itself in.
  LAB_SHAPE_RETENTION_DAYS: z.coerce.number().positive().default(14),
  JAVA_BIN: z.string().default('java'),
  LAB_HIKARI_JAR: z
    .string()
    .default(join(REPO, 'apps/lab-targets/java-hikari/bin/lab-target-hikari.jar')),
  BUN_BIN: z.string().default(join(REPO, 'node_modules/.bin/bun')),
  LAB_BUN_SERVER: z.string().default(join(REPO, 'apps/lab-targets/bun/server.ts')),
  LAB_PHP_BIN: z.string().default(join(REPO, 'apps/lab-targets/php-fpm/lab-target-php')),
  // Under the installation's own data directory: two installations on one host (a `make up` stack
  // and a `make test` clone) must never reap each other's child processes.
  POOLBENCH_RUNTIME_DIR: z
    .string()
    .default(join(process.env.POOLBENCH_DATA_DIR ?? join(REPO, '.data'), 'worker-runtime')),
  RUN_HEARTBEAT_MS: z.coerce.number().int().min(100).default(2000),
  RUN_STALE_AFTER_MS: z.coerce.number().int().min(1000).default(15_000),
  RUN_READY_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  RUN_TIMEOUT_MARGIN_MS: z.coerce.number().int().min(1000).default(60_000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(5000),
  // BullMQ's lock on an active run job, renewed at half of it; a dead worker's job is failed by a
  // live worker's stall check (every half of its own lock) once the lock has run out
  RUN_JOB_LOCK_MS: z.coerce.number().int().min(4000).default(30_000),
  QUEUE_PREFIX: z.string().optional(),
  // Distributed runs (docs/distributed-runs.md): the address other workers reach this worker's
  // managed targets on, how long a run waits for its load generators, the lead time of the common
  // start instant, and after how long a silent generator counts as dead.
  WORKER_ADVERTISE_HOST: z.string().min(1).default('127.0.0.1'),
  SEGMENT_JOIN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  SEGMENT_START_LEAD_MS: z.coerce.number().int().min(200).max(20_000).default(3000),
  SEGMENT_STALE_AFTER_MS: z.coerce.number().int().min(500).default(3000),
  // Webhooks of schedules (docs/notifications.md): how often due deliveries are looked for, and the
  // app's public URL their links point to (BETTER_AUTH_URL when unset).
  NOTIFY_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
  POOLBENCH_URL: z.string().url().optional(),
  BETTER_AUTH_URL: z.string().url().default(SERVICE_DEFAULTS.BETTER_AUTH_URL),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
});

export type WorkerEnv = z.infer<typeof EnvSchema> & { WORKER_ID: string };

export function loadEnv(source: NodeJS.ProcessEnv = process.env): WorkerEnv {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid worker environment: ${problems}`);
  }
  return { ...parsed.data, WORKER_ID: parsed.data.WORKER_ID ?? `${hostname()}-${process.pid}` };
}

/** The runtimes' programs as the worker's environment names them. */
export function runtimeBinsOf(
  env: Pick<
    WorkerEnv,
    'LAB_TARGET_BIN' | 'JAVA_BIN' | 'LAB_HIKARI_JAR' | 'BUN_BIN' | 'LAB_BUN_SERVER' | 'LAB_PHP_BIN'
  >,
) {
  return {
    labTargetBin: env.LAB_TARGET_BIN,
    javaBin: env.JAVA_BIN,
    hikariJar: env.LAB_HIKARI_JAR,
    bunBin: env.BUN_BIN,
    bunServer: env.LAB_BUN_SERVER,
    phpLauncher: env.LAB_PHP_BIN,
  };
}
