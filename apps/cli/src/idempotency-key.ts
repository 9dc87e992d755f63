import { createHash, randomUUID } from 'node:crypto';

/**
 * Same CI job attempt + same request = same key, so a step retried by the CI system (or by a
 * retry wrapper) gets the experiment the first attempt started instead of a second load test.
 * A deliberate re-run of the pipeline has a new attempt number and starts a new experiment.
 */
export function idempotencyKey(
  env: NodeJS.ProcessEnv,
  requestBody: unknown,
  explicit?: string,
): string {
  if (explicit) return explicit;
  if (env.POOLBENCH_IDEMPOTENCY_KEY) return env.POOLBENCH_IDEMPOTENCY_KEY;
  const body = createHash('sha256').update(JSON.stringify(requestBody)).digest('hex').slice(0, 16);
  if (env.GITHUB_RUN_ID)
    return `gh:${env.GITHUB_REPOSITORY ?? ''}:${env.GITHUB_RUN_ID}:${env.GITHUB_RUN_ATTEMPT ?? '1'}:${env.GITHUB_JOB ?? ''}:${body}`;
  if (env.CI_JOB_ID) return `gl:${env.CI_PROJECT_ID ?? ''}:${env.CI_JOB_ID}:${body}`;
  if (env.BUILDKITE_JOB_ID)
    return `bk:${env.BUILDKITE_JOB_ID}:${env.BUILDKITE_RETRY_COUNT ?? '0'}:${body}`;
  if (env.CIRCLE_WORKFLOW_JOB_ID) return `cc:${env.CIRCLE_WORKFLOW_JOB_ID}:${body}`;
  return `rnd:${randomUUID()}`;
}
