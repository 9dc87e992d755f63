/**
 * Variables of the worker's own environment a process it starts for a run must not see:
 * PoolBench's database, queue, lab admin and signing credentials. Every `LAB_*` variable is also
 * dropped, since the lab targets read `LAB_<FLAG>` as a flag: only what the run sets reaches them.
 */
const WORKER_ONLY = [
  'DATABASE_URL',
  'REDIS_URL',
  'POOLBENCH_SECRET_KEY',
  'BETTER_AUTH_SECRET',
  'WORKER_DATABASE_URL',
  'MAILPIT_URL',
];

/**
 * The environment of a process started for a run (lab target, `lab-target setup`): the worker's
 * environment without its credentials, plus `extra`. A database URL with its password goes here
 * (`LAB_DATABASE_URL`), never into argv: `/proc/<pid>/cmdline` is readable by every local user,
 * `/proc/<pid>/environ` only by the same user.
 */
export function runProcessEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (WORKER_ONLY.includes(k) || k.startsWith('LAB_')) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}
