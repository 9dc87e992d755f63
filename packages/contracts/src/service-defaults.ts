/**
 * Where a default installation's services listen (infra/services.sh and scripts/stack.sh start
 * them there): the default of each process's variable, and what the installation-boundary check
 * takes as its own services when a variable is unset.
 */
export const SERVICE_DEFAULTS = {
  DATABASE_URL: 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench',
  REDIS_URL: 'redis://127.0.0.1:63799',
  LAB_DATABASE_URL: 'postgresql://poolbench:poolbench@127.0.0.1:54329/poolbench_lab',
  LAB_MARIADB_URL: 'mysql://poolbench:poolbench@127.0.0.1:33069/poolbench_lab',
  BETTER_AUTH_URL: 'http://localhost:3000',
  PORT: 3000,
  MAILPIT_SMTP_PORT: 54025,
  MAILPIT_HTTP_PORT: 54026,
  WORKER_HEALTH_PORT: 9464,
} as const;
