import { describe, expect, it } from 'vitest';
import { idempotencyKey } from './idempotency-key';

describe('idempotencyKey', () => {
  const body = { kind: 'saved', experiment: 'x' };
  it('is stable for a retried step of the same CI job attempt', () => {
    const env = {
      GITHUB_RUN_ID: '42',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'bench',
      GITHUB_REPOSITORY: 'o/r',
    };
    expect(idempotencyKey(env, body)).toBe(idempotencyKey(env, body));
    expect(idempotencyKey({ ...env, GITHUB_RUN_ATTEMPT: '2' }, body)).not.toBe(
      idempotencyKey(env, body),
    );
    expect(idempotencyKey(env, { ...body, experiment: 'y' })).not.toBe(idempotencyKey(env, body));
  });
  it('uses GitLab job ids, explicit keys, else a random key', () => {
    expect(idempotencyKey({ CI_JOB_ID: '7' }, body)).toMatch(/^gl::7:/);
    expect(idempotencyKey({}, body, 'mine')).toBe('mine');
    expect(idempotencyKey({}, body)).not.toBe(idempotencyKey({}, body));
  });
});
