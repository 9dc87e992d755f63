import { describe, expect, it } from 'vitest';
import { EXPERIMENT_POLL_MS, experimentPollMs, type ExperimentPollState } from './experiment-poll';

const state = (over: Partial<ExperimentPollState> = {}): ExperimentPollState => ({
  runs: [{}, {}],
  progress: { done: 2, total: 2 },
  advisor: null,
  sequential: null,
  hypotheses: { items: [] },
  ...over,
});

describe('the experiment page polls', () => {
  it('while runs are to go, and stops once every run ended and nothing else is due', () => {
    expect(experimentPollMs(state({ progress: { done: 1, total: 2 } }))).toBe(EXPERIMENT_POLL_MS);
    expect(experimentPollMs(state())).toBe(false);
    expect(experimentPollMs(undefined)).toBe(false);
    expect(experimentPollMs(state({ runs: [], progress: { done: 0, total: 0 } }))).toBe(false);
  });

  it('after the last run ended, until its hypotheses are decided', () => {
    // the answer that showed every run ended came before afterRunEnded decided the claim
    const ended = state({ hypotheses: { items: [{ status: 'holds' }, { status: 'pending' }] } });
    expect(experimentPollMs(ended)).toBe(EXPERIMENT_POLL_MS);
    const decided = state({
      hypotheses: { items: [{ status: 'holds' }, { status: 'unresolved' }] },
    });
    expect(experimentPollMs(decided)).toBe(false);
  });

  it('while an advisor searches or an "until decided" rule has not stopped', () => {
    expect(experimentPollMs(state({ advisor: { state: { status: 'running' } } }))).toBe(
      EXPERIMENT_POLL_MS,
    );
    expect(experimentPollMs(state({ advisor: { state: { status: 'done' } } }))).toBe(false);
    expect(experimentPollMs(state({ sequential: { state: null } }))).toBe(EXPERIMENT_POLL_MS);
    expect(experimentPollMs(state({ sequential: { state: { stop: true } } }))).toBe(false);
  });
});
