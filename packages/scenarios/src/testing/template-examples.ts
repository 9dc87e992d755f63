import type { ScenarioInput } from '../scenario-schema';
import type { TemplateId } from '../templates/registry';

const get = [{ path: '/work' }];

/** One small, fast (2-3 s) valid scenario per template, used by the k6 tests. */
export const TEMPLATE_EXAMPLES = {
  'cold-start-burst': {
    template: 'cold-start-burst',
    params: { vus: 5, rampUpMs: 0, holdMs: 2000, thinkTimeMs: 100 },
    requests: get,
  },
  'ramp-up': {
    template: 'ramp-up',
    params: {
      stages: [
        { durationMs: 1000, targetVUs: 4 },
        { durationMs: 1000, targetVUs: 4 },
        { durationMs: 500, targetVUs: 0 },
      ],
      thinkTimeMs: 100,
    },
    requests: get,
  },
  spike: {
    template: 'spike',
    params: {
      baselineVUs: 1,
      spikeVUs: 5,
      spikes: 1,
      rampToBaselineMs: 0,
      baselineMs: 1000,
      spikeRampMs: 0,
      spikeHoldMs: 1000,
      thinkTimeMs: 100,
    },
    requests: get,
  },
  sustained: {
    template: 'sustained',
    params: { vus: 3, durationMs: 2000, thinkTimeMs: 100 },
    requests: get,
  },
  'constant-arrival-rate': {
    template: 'constant-arrival-rate',
    params: { ratePerSec: 50, durationMs: 2000, preAllocatedVUs: 10, maxVUs: 20 },
    requests: get,
  },
  'fixed-requests': {
    template: 'fixed-requests',
    params: { requests: 37, concurrency: 3 },
    requests: get,
  },
  'arrival-rate-sweep': {
    template: 'arrival-rate-sweep',
    params: {
      startRatePerSec: 20,
      stepRatePerSec: 20,
      steps: 3,
      stepDurationMs: 1000,
      preAllocatedVUs: 5,
      maxVUs: 20,
    },
    requests: get,
  },
} satisfies Record<TemplateId, ScenarioInput>;
