import { describe, expect, it } from 'vitest';
import type { Experiment } from '../types';
import { insightLines } from './text';

describe('insight lines of the text report', () => {
  it('names each suspect run with its config, severity, message and fix; info stays on the run page', () => {
    const e = {
      poolConfigs: [{ id: 'p1', name: 'fixed 8' }],
      runs: [
        {
          id: 'r1',
          status: 'succeeded',
          poolConfigId: 'p1',
          scenarioId: 's',
          repeatIndex: 1,
          errorMessage: null,
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
        {
          id: 'r2',
          status: 'succeeded',
          poolConfigId: 'p1',
          scenarioId: 's',
          repeatIndex: 0,
          errorMessage: null,
        },
      ],
    } as unknown as Experiment;
    expect(insightLines(e)).toEqual([
      '  INSIGHT critical run #2 (fixed 8): k6 dropped 5; fix: raise maxVUs',
    ]);
  });
});
