import { describe, expect, it } from 'vitest';
import { ApiError } from './client';

describe('ApiError', () => {
  it('says each field problem once when the detail already lists them (a 422 from zod)', () => {
    const e = new ApiError({
      status: 422,
      code: 'validation_failed',
      detail: 'repeats: must be at most 50',
      problems: [{ path: 'repeats', message: 'must be at most 50' }],
    });
    expect(e.message).toBe('repeats: must be at most 50 (validation_failed, HTTP 422)');
  });
  it('appends field problems the detail does not say', () => {
    const e = new ApiError({
      status: 422,
      code: 'validation_failed',
      detail: 'the scenario is invalid',
      problems: [{ path: 'scenario.params.ratePerSec', message: 'must be at least 1' }],
    });
    expect(e.message).toBe(
      'the scenario is invalid (validation_failed, HTTP 422): scenario.params.ratePerSec: must be at least 1',
    );
  });
});
