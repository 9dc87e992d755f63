import { resolve } from 'node:path';
import { z } from 'zod';
import { SERVICE_DEFAULTS } from '@poolbench/contracts';

/** Typed server environment: the only place the web app reads process.env. */
const EnvSchema = z.object({
  DATABASE_URL: z.string().url().default(SERVICE_DEFAULTS.DATABASE_URL),
  REDIS_URL: z.string().url().default(SERVICE_DEFAULTS.REDIS_URL),
  BETTER_AUTH_SECRET: z.string().min(16).default('dev-only-secret-change-me-please'),
  BETTER_AUTH_URL: z.string().url().default(SERVICE_DEFAULTS.BETTER_AUTH_URL),
  POOLBENCH_SECRET_KEY: z.string().optional(),
  /** the app's public URL when it differs from BETTER_AUTH_URL; tRPC mutations accept its origin */
  POOLBENCH_URL: z.string().url().optional(),
  /** extra origins allowed to post auth forms (comma-separated), e.g. a dev server on another port */
  TRUSTED_ORIGINS: z
    .string()
    .default(
      'http://localhost:3000,http://127.0.0.1:3000,http://localhost:3100,http://127.0.0.1:3100',
    )
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  /**
   * Where PoolBench sends mail (sign-up verification, invitations): smtp://user:pass@host:port or
   * smtps://…; `make up` points it at the local Mailpit. Unset: mail is written to the log instead.
   */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('PoolBench <poolbench@localhost>'),
  /** reverse proxies of yours in front of the app that append to X-Forwarded-For (0: none) */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Installation admins besides the first account (comma-separated emails; each counts once its
   * address is verified): they open special-purpose ranges to teams (docs/security.md).
   */
  POOLBENCH_INSTALLATION_ADMINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** sign-ups the installation takes per minute from everyone together (docs/security.md) */
  SIGN_UP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** requests one API token may make per minute on the REST API */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  WORKER_STALE_AFTER_MS: z.coerce.number().int().positive().default(15_000),
  /** the web app's own stale-run sweep (same as the workers'), so runs end truthfully with no worker alive */
  WEB_SWEEPER: z
    .enum(['0', '1'])
    .default('1')
    .transform((v) => v === '1'),
  RUN_STALE_AFTER_MS: z.coerce.number().int().min(1000).default(15_000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(200).default(5000),
  /** where `npm run build -w @poolbench/cli` wrote poolbench.mjs; the app runs from apps/web */
  POOLBENCH_CLI_DIR: z.string().min(1).default(resolve(process.cwd(), '../cli/dist')),
  /** PoolBench's k6 build, which checks teams' own k6 scripts in the sandbox */
  POOLBENCH_K6_BIN: z.string().min(1).default(resolve(process.cwd(), '../../packages/k6/bin/k6')),
});

export const env = EnvSchema.parse(process.env);
