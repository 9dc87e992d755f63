import { describe, expect, it } from 'vitest';
import type { K6RunResult } from '@poolbench/k6';
import { distributedOutcome } from './distributed-outcome';

const own = (endReason: K6RunResult['endReason']) => ({
  result: { endReason } as K6RunResult,
  status: endReason === 'completed' ? ('succeeded' as const) : ('failed' as const),
});
const seg = (
  index: number,
  status: 'succeeded' | 'failed' | 'canceled',
  errorMessage: string | null = null,
) => ({ index, status, workerId: `w${index}`, errorMessage });

describe('distributedOutcome', () => {
  it('succeeds only when every segment succeeded', () => {
    expect(
      distributedOutcome({
        segments: [seg(0, 'succeeded'), seg(1, 'succeeded')],
        own: own('completed'),
        abortReason: null,
        timeoutMs: 1000,
      }).status,
    ).toBe('succeeded');
  });
  it('a merged run that crossed a threshold ends thresholds_failed, as a single k6 would (exit 99)', () => {
    const segments = [seg(0, 'succeeded'), seg(1, 'succeeded')];
    const thresholds = [
      { metric: 'http_req_duration', expr: 'p(95)<1', observed: 12.5, pass: false },
      { metric: 'http_req_failed', expr: 'rate<0.01', observed: 0, pass: true },
    ];
    const o = distributedOutcome({
      segments,
      own: own('completed'),
      abortReason: null,
      timeoutMs: 1000,
      thresholds,
    });
    expect(o).toEqual({
      status: 'thresholds_failed',
      errorCode: 'thresholds_failed',
      errorMessage: '1 of 2 thresholds failed: http_req_duration p(95)<1 (observed 12.5)',
    });
    // a failed segment still wins: its data is incomplete, thresholds on it would mislead
    expect(
      distributedOutcome({
        segments: [seg(0, 'succeeded'), seg(1, 'failed', 'x')],
        own: own('completed'),
        abortReason: null,
        timeoutMs: 1000,
        thresholds,
      }).status,
    ).toBe('aborted_system');
  });
  it('a failed segment ends the run aborted_system naming that segment and its worker, even when others were only canceled after it', () => {
    const o = distributedOutcome({
      segments: [
        seg(0, 'canceled'),
        seg(1, 'canceled'),
        seg(2, 'failed', 'worker w2 of segment 2 stopped sending heartbeats'),
      ],
      own: own('aborted'),
      abortReason: null,
      timeoutMs: 1000,
    });
    expect(o).toMatchObject({ status: 'aborted_system', errorCode: 'segment_failed' });
    expect(o.errorMessage).toMatch(
      /^segment 2 \(worker w2\) failed: worker w2 of segment 2 stopped sending heartbeats; .*data of every segment kept$/,
    );
  });
  it("a user's cancel and the leader's shutdown win over segment states", () => {
    expect(
      distributedOutcome({
        segments: [seg(0, 'canceled'), seg(1, 'failed')],
        own: own('aborted'),
        abortReason: 'cancel',
        timeoutMs: 1,
      }).status,
    ).toBe('canceled');
    expect(
      distributedOutcome({
        segments: [seg(0, 'canceled')],
        own: own('aborted'),
        abortReason: 'shutdown',
        timeoutMs: 1,
      }).errorCode,
    ).toBe('worker_shutdown');
  });
  it("the leader's own k6 timing out is timed_out", () => {
    expect(
      distributedOutcome({
        segments: [seg(0, 'canceled'), seg(1, 'succeeded')],
        own: own('timed_out'),
        abortReason: null,
        timeoutMs: 60_000,
      }).status,
    ).toBe('timed_out');
  });
});
