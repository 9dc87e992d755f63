import { hostname } from 'node:os';
import { z } from 'zod';

/** Worker configuration; every variable is documented in apps/worker/README.md. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().default('postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:63799'),
  WORKER_ID: z.string().min(1).optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  WORKER_HEARTBEAT_MS: z.coerce.number().int().min(200).default(5000),
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(20_000),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
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
