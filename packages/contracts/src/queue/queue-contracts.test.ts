import { describe, expect, it } from 'vitest';
import { RUN_QUEUE, SCHEDULE_QUEUE, runEventsChannel } from './queue-names';
import { RunJobSchema, ScheduleJobSchema } from './job-schemas';
import { LiveEventSchema } from './live-event-schema';

describe('queue contracts', () => {
  it('names queues and the live channel', () => {
    expect([RUN_QUEUE, SCHEDULE_QUEUE]).toEqual(['poolbench-runs', 'poolbench-schedules']);
    expect(runEventsChannel('run_1')).toBe('poolbench:run:run_1');
  });

  it('job payloads carry ids only', () => {
    expect(RunJobSchema.parse({ runId: 'cm1abc' })).toEqual({ runId: 'cm1abc' });
    expect(
      RunJobSchema.safeParse({ runId: 'cm1abc', databaseUrl: 'postgres://u:p@h/db' }).success,
    ).toBe(false);
    expect(ScheduleJobSchema.safeParse({ scheduleId: '' }).success).toBe(false);
    expect(ScheduleJobSchema.safeParse({ scheduleId: 'a b' }).success).toBe(false);
  });

  it('parses each live event type and rejects unknown ones', () => {
    const point = {
      second: 3,
      requests: 120,
      failed: 2,
      statusCounts: { '200': 118, '503': 2 },
      droppedIterations: 0,
      vus: 10,
      p50Ms: 4.1,
      p95Ms: 12,
      p99Ms: 30,
      maxMs: 80,
      meanMs: 6,
      connectingP95Ms: null,
      blockedP95Ms: null,
      cpuPercent: 40,
      rssBytes: 9e6,
      poolInUse: 3,
      poolIdle: 2,
      poolTotal: 5,
      poolWaitCount: 0,
      poolWaitMs: null,
      dbActive: 3,
      dbIdle: 2,
      dbTotal: 5,
      dbNewConns: 0,
    };
    expect(
      LiveEventSchema.parse({ type: 'second', runId: 'r', atMs: 1_700_000_000_000, point }),
    ).toMatchObject({ type: 'second', point: { second: 3 } });
    expect(
      LiveEventSchema.safeParse({
        type: 'second',
        runId: 'r',
        atMs: 1,
        point: { ...point, requests: -1 },
      }).success,
    ).toBe(false);
    expect(
      LiveEventSchema.parse({ type: 'status', runId: 'r', status: 'running', atMs: 1 }).type,
    ).toBe('status');
    expect(LiveEventSchema.parse({ type: 'heartbeat', runId: 'r', atMs: 1 }).type).toBe(
      'heartbeat',
    );
    expect(
      LiveEventSchema.safeParse({ type: 'status', runId: 'r', status: 'exploded', atMs: 1 })
        .success,
    ).toBe(false);
    expect(LiveEventSchema.safeParse({ type: 'log', runId: 'r', atMs: 1 }).success).toBe(false);
  });
});
