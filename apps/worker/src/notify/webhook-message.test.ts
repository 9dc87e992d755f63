import type { NotificationPayload } from '@poolbench/db';
import { describe, expect, it } from 'vitest';
import { regressionLines, webhookBody } from './webhook-message';

const payload: NotificationPayload = {
  event: 'schedule.regression',
  outcome: 'regression',
  schedule: { id: 's1', name: 'nightly' },
  experiment: { id: 'e1', name: 'nightly 12', path: '/experiments/e1' },
  target: { id: 't1', name: 'Lab' },
  baseline: 'main',
  cells: [
    {
      poolConfig: 'hikari fixed 10',
      scenario: 'burst',
      baselineRuns: 3,
      candidateRuns: 3,
      state: 'regression',
      regression: true,
      failedThresholds: [
        { runId: 'r9', metric: 'http_req_duration', expr: 'p(95)<100', observed: 220 },
      ],
      metrics: [
        {
          key: 'p95Ms',
          label: 'p95 latency',
          unit: 'ms',
          verdict: 'inconclusive',
          suspected: true,
          repeatsNeeded: 8,
          baselineMedian: 23.2,
          candidateMedian: 220,
          changePercent: { estimate: 409, lower: -72, upper: 1078 },
          confidence: 0.9,
          pValue: 0.1,
          reason: 'the interval crosses the floor',
        },
      ],
    },
  ],
  decidedAt: '2026-11-26T03:00:00.000Z',
};

describe('webhook message', () => {
  it('names the suspected metric with its change, interval and the repeats that would settle it, and every failed threshold with its run', () => {
    expect(regressionLines(payload)).toEqual([
      'suspected: p95 latency +409 % [−72 %, +1078 %] (hikari fixed 10 × burst, 3 vs 3 runs); about 8 repeats per side would settle it',
      'threshold failed: http_req_duration p(95)<100 (observed 220) in run r9 (hikari fixed 10 × burst)',
    ]);
    const slack = JSON.parse(webhookBody(payload, 'slack', 'https://pb.example', 'd1')) as {
      text: string;
    };
    expect(slack.text).toContain('regressed against baseline `main`');
    expect(slack.text).toContain('threshold failed: http_req_duration p(95)<100');
    const generic = JSON.parse(webhookBody(payload, 'generic', 'https://pb.example', 'd1')) as {
      outcome: string;
      cells: { failedThresholds: unknown[] }[];
    };
    expect(generic.outcome).toBe('regression');
    expect(generic.cells[0]!.failedThresholds).toHaveLength(1);
  });

  it('says why a cell could not be judged', () => {
    const incomplete: NotificationPayload = {
      ...payload,
      event: 'schedule.finished',
      outcome: 'incomplete',
      cells: [
        {
          poolConfig: 'hikari fixed 10',
          scenario: 'burst',
          baselineRuns: 3,
          candidateRuns: 1,
          crashedRuns: 2,
          state: 'incomplete',
          incomplete: '2 of 3 candidate runs crashed (more than 33 %)',
          regression: false,
          failedThresholds: [],
          metrics: [],
        },
      ],
    };
    expect(regressionLines(incomplete)).toEqual([
      'incomplete: 2 of 3 candidate runs crashed (more than 33 %) (hikari fixed 10 × burst)',
    ]);
    const slack = JSON.parse(webhookBody(incomplete, 'slack', 'https://pb.example', 'd1')) as {
      text: string;
    };
    expect(slack.text).toContain('could not be judged');
  });
  it('says when a change point of the history decided, with its firings and commits', () => {
    const firing = (name: string, commit: string) => ({
      experimentId: name,
      name,
      createdAt: '2026-11-20T03:00:00.000Z',
      commit,
      branch: 'main',
    });
    const byHistory: NotificationPayload = {
      ...payload,
      decidedBy: 'change-point',
      cells: [
        {
          poolConfig: 'hikari fixed 10',
          scenario: 'burst',
          baselineRuns: 5,
          candidateRuns: 5,
          state: 'regression',
          regression: true,
          evidence: ['change-point'],
          changePoints: [
            {
              metric: 'p99Ms',
              kind: 'regression',
              change: 0.5,
              interval: { estimate: 0.49, lower: 0.41, upper: 0.58 },
              pValue: 1e-6,
              firingsBefore: 5,
              firingsAfter: 3,
              before: firing('nightly 5', '0123456789abcdef'),
              after: firing('nightly 6', 'fedcba9876543210'),
            },
          ],
          failedThresholds: [],
          metrics: [],
        },
      ],
    };
    expect(regressionLines(byHistory)).toEqual([
      'change point (regression): p99Ms +50 % [+41 %, +58 %] between nightly 5 (0123456789ab) and nightly 6 (fedcba987654), 5 firings before and 3 after (hikari fixed 10 × burst)',
    ]);
    const slack = JSON.parse(webhookBody(byHistory, 'slack', 'https://pb.example', 'd2')) as {
      text: string;
    };
    expect(slack.text).toContain(
      'regressed: a change point in its history (not its comparison with baseline `main`)',
    );
    const both = JSON.parse(
      webhookBody({ ...byHistory, decidedBy: 'both' }, 'slack', 'https://pb.example', 'd3'),
    ) as { text: string };
    expect(both.text).toContain('regressed against baseline `main` and in its history');
    const generic = JSON.parse(webhookBody(byHistory, 'generic', 'https://pb.example', 'd4')) as {
      decidedBy: string;
    };
    expect(generic.decidedBy).toBe('change-point');
  });
});
