import { describe, expect, it } from 'vitest';
import { outcomeFromError, outcomeFromK6, type K6Ending } from './outcome';

const base: K6Ending = {
  endReason: 'completed',
  exitCode: 0,
  stderrTail: [],
  abortReason: null,
  timeoutMs: 75_000,
};

describe('outcomeFromK6', () => {
  it.each([
    ['completed', { endReason: 'completed' }, 'succeeded', null],
    ['timed out', { endReason: 'timed_out', exitCode: null }, 'timed_out', 'timed_out'],
    ['aborted by a user', { endReason: 'aborted', abortReason: 'cancel' }, 'canceled', 'canceled'],
    [
      'aborted with no reason recorded',
      { endReason: 'aborted', abortReason: null },
      'canceled',
      'canceled',
    ],
    [
      'aborted by shutdown',
      { endReason: 'aborted', abortReason: 'shutdown' },
      'aborted_system',
      'worker_shutdown',
    ],
    [
      'aborted because the run was lost',
      { endReason: 'aborted', abortReason: 'lost' },
      'aborted_system',
      'worker_lost',
    ],
    [
      'k6 error',
      { endReason: 'k6_error', exitCode: 107, k6Error: 'script exception', stderrTail: ['a', 'b'] },
      'failed',
      'k6_error',
    ],
  ] as const)('%s', (_name, patch, status, code) => {
    const o = outcomeFromK6({ ...base, ...patch } as K6Ending);
    expect(o.status).toBe(status);
    expect(o.errorCode).toBe(code);
    if (status === 'succeeded') expect(o.errorMessage).toBeNull();
    else expect(o.errorMessage).toBeTruthy();
  });

  it.each([
    [
      'every threshold passed',
      [{ metric: 'http_req_duration', expr: 'p(95)<500', observed: 12.5, pass: true }],
      'succeeded',
      null,
    ],
    ['no thresholds', [], 'succeeded', null],
    [
      'a threshold failed',
      [
        { metric: 'http_req_duration', expr: 'p(95)<1', observed: 12.3456, pass: false },
        { metric: 'http_req_failed', expr: 'rate<0.01', observed: 0, pass: true },
      ],
      'thresholds_failed',
      'thresholds_failed',
    ],
  ] as const)('completed and %s', (_name, thresholds, status, code) => {
    const o = outcomeFromK6({ ...base, thresholds });
    expect(o.status).toBe(status);
    expect(o.errorCode).toBe(code);
    if (status === 'thresholds_failed')
      expect(o.errorMessage).toBe(
        '1 of 2 thresholds failed: http_req_duration p(95)<1 (observed 12.35)',
      );
  });

  it('a failed threshold does not hide how the run ended otherwise', () => {
    const thresholds = [{ metric: 'http_req_duration', expr: 'p(95)<1', observed: 5, pass: false }];
    expect(outcomeFromK6({ ...base, endReason: 'timed_out', thresholds }).status).toBe('timed_out');
    expect(
      outcomeFromK6({ ...base, endReason: 'aborted', abortReason: 'cancel', thresholds }).status,
    ).toBe('canceled');
  });

  it('names the wall-clock limit in seconds when it timed out', () => {
    expect(
      outcomeFromK6({ ...base, endReason: 'timed_out', timeoutMs: 75_400 }).errorMessage,
    ).toMatch(/limit of 75 s/);
  });

  it("names a script's stop time when the script was still running then", () => {
    const o = outcomeFromK6({ ...base, endReason: 'timed_out', timeoutMs: 15_000, stopTime: true });
    expect(o.status).toBe('timed_out');
    expect(o.errorMessage).toMatch(/stop time of 15 s/);
  });

  it('puts the exit code, k6 error and the last five stderr lines into a k6 failure, capped at 2000 chars', () => {
    const tail = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'];
    const o = outcomeFromK6({
      ...base,
      endReason: 'k6_error',
      exitCode: 107,
      k6Error: 'TypeError',
      stderrTail: tail,
    });
    expect(o.errorMessage).toBe('k6 ended with exit code 107 (TypeError): l2 | l3 | l4 | l5 | l6');
    expect(
      outcomeFromK6({
        ...base,
        endReason: 'k6_error',
        exitCode: null,
        stderrTail: ['x'.repeat(5000)],
      }).errorMessage,
    ).toHaveLength(2000);
    expect(outcomeFromK6({ ...base, endReason: 'k6_error', exitCode: null }).errorMessage).toBe(
      'k6 ended with exit code unknown',
    );
  });
});

describe('outcomeFromError', () => {
  it.each([
    ['target_not_ready', null, 'failed', 'target_not_ready'],
    ['canceled', null, 'canceled', 'canceled'],
    ['target_not_ready', 'cancel', 'canceled', 'canceled'],
    ['internal_error', 'shutdown', 'aborted_system', 'worker_shutdown'],
    ['not_allowed', 'lost', 'failed', 'not_allowed'],
  ] as const)('%s with abort %s → %s', (code, reason, status, outCode) => {
    const o = outcomeFromError(code, 'why', reason);
    expect(o).toEqual({ status, errorCode: outCode, errorMessage: 'why' });
  });
});
