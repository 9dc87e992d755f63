import { describe, expect, it } from 'vitest';
import type { Experiment } from '../types';
import { insightLines, MAX_INSIGHT_LINES, toText } from './text';

type Run = Experiment['runs'][number];
type Insight = NonNullable<Run['insights']>[number];

const dropped = (n: number): Insight => ({
  code: 'load-not-offered',
  severity: 'critical',
  message: `k6 dropped ${n} iterations`,
  fix: 'raise maxVUs',
});
const neverWaited: Insight = {
  code: 'pool-never-waited',
  severity: 'warning',
  message: 'the pool never made a request wait',
  fix: 'offer more load',
};

function experiment(runs: Partial<Run>[], scenarios = [{ id: 's', name: 'burst' }]): Experiment {
  return {
    id: 'e1',
    name: 'fixed vs elastic',
    status: 'completed',
    finished: true,
    target: { id: 't', name: 'Lab' },
    poolConfigs: [
      { id: 'p1', name: 'fixed 8' },
      { id: 'p2', name: 'elastic 2..20' },
    ],
    scenarios,
    progress: { done: runs.length, total: runs.length, byStatus: { succeeded: runs.length } },
    runs: runs.map((r, i) => ({
      id: `r${i}`,
      status: 'succeeded',
      poolConfigId: 'p1',
      scenarioId: 's',
      repeatIndex: 0,
      errorMessage: null,
      ...r,
    })),
    webUrl: 'http://localhost:3000/experiments/e1',
  };
}

describe('insight lines of the text report', () => {
  it('names a single suspect run with its config, severity, message and fix; info stays on the run page', () => {
    const e = experiment([
      {
        repeatIndex: 1,
        insights: [
          {
            code: 'load-not-offered',
            severity: 'critical',
            message: 'k6 dropped 5',
            fix: 'raise maxVUs',
          },
          { code: 'pool-never-waited', severity: 'info', message: 'no wait', fix: 'more load' },
        ],
      },
      // a server older than insights sends none
      { repeatIndex: 0 },
    ]);
    expect(insightLines(e)).toEqual([
      '  INSIGHT critical run #2 (fixed 8): k6 dropped 5; fix: raise maxVUs',
    ]);
  });

  it('gives one line per kind of insight however many runs have it, critical first', () => {
    // ten runs with two insights each: two lines, not twenty
    const runs = [0, 1, 2, 3, 4].flatMap((i) =>
      (['p1', 'p2'] as const).map((poolConfigId) => ({
        poolConfigId,
        repeatIndex: i,
        insights: [neverWaited, dropped(10 + i)],
      })),
    );
    expect(insightLines(experiment(runs))).toEqual([
      '  INSIGHT critical in 10 runs (fixed 8 #1 #2 #3 #4 #5, elastic 2..20 #1 #2 #3 #4 #5): k6 dropped 10 iterations (run #1 of fixed 8); fix: raise maxVUs',
      '  INSIGHT warning in 10 runs (fixed 8 #1 #2 #3 #4 #5, elastic 2..20 #1 #2 #3 #4 #5): the pool never made a request wait (run #1 of fixed 8); fix: offer more load',
    ]);
  });

  it('names the scenario too when the experiment has several', () => {
    const e = experiment(
      [
        { scenarioId: 's', insights: [dropped(3)] },
        { scenarioId: 'q', poolConfigId: 'p2', repeatIndex: 2, insights: [dropped(4)] },
      ],
      [
        { id: 's', name: 'burst' },
        { id: 'q', name: 'ramp' },
      ],
    );
    expect(insightLines(e)).toEqual([
      '  INSIGHT critical in 2 runs (fixed 8 × burst #1, elastic 2..20 × ramp #3): k6 dropped 3 iterations (run #1 of fixed 8 × burst); fix: raise maxVUs',
    ]);
  });

  it(`stops after ${MAX_INSIGHT_LINES} kinds and points at the experiment page for the rest`, () => {
    const insights = Array.from({ length: MAX_INSIGHT_LINES + 2 }, (_, i) => ({
      ...neverWaited,
      code: `kind-${i}`,
    }));
    const lines = insightLines(experiment([{ insights }]));
    expect(lines).toHaveLength(MAX_INSIGHT_LINES + 1);
    expect(lines.at(-1)).toBe(
      '  INSIGHT 2 more kinds of insight: http://localhost:3000/experiments/e1',
    );
  });

  it('keeps the outcome within a few lines of the end of a report with many suspect runs', () => {
    const runs = Array.from({ length: 20 }, (_, i) => ({
      repeatIndex: i,
      insights: [dropped(i), neverWaited],
    }));
    const text = toText({
      experiment: experiment(runs),
      comparison: null,
      summary: null,
      problems: [],
      outcome: 'pass',
      exitCode: 0,
    } as unknown as Parameters<typeof toText>[0]);
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('  INSIGHT'))).toHaveLength(2);
    expect(lines.at(-1)).toBe('Result: pass (exit 0)');
    expect(lines.length).toBeLessThan(8);
  });
});
