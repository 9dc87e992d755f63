import type { TemplateId } from '@poolbench/scenarios';

/** Starting values for a new scenario of each template: small enough for a laptop, long enough to mean something. */
export const TEMPLATE_DEFAULTS: Record<TemplateId, Record<string, unknown>> = {
  'cold-start-burst': { vus: 50, rampUpMs: 1000, holdMs: 30_000, thinkTimeMs: 0 },
  'ramp-up': {
    startVUs: 0,
    stages: [
      { durationMs: 20_000, targetVUs: 50 },
      { durationMs: 20_000, targetVUs: 50 },
      { durationMs: 5000, targetVUs: 0 },
    ],
    thinkTimeMs: 0,
  },
  spike: {
    baselineVUs: 10,
    spikeVUs: 80,
    spikes: 2,
    rampToBaselineMs: 1000,
    baselineMs: 10_000,
    spikeRampMs: 1000,
    spikeHoldMs: 5000,
    thinkTimeMs: 0,
  },
  sustained: { vus: 20, durationMs: 120_000, thinkTimeMs: 0 },
  'constant-arrival-rate': {
    ratePerSec: 200,
    durationMs: 30_000,
    preAllocatedVUs: 20,
    maxVUs: 200,
  },
  'fixed-requests': { requests: 2000, concurrency: 20 },
  'arrival-rate-sweep': {
    startRatePerSec: 100,
    stepRatePerSec: 100,
    steps: 5,
    stepDurationMs: 10_000,
    preAllocatedVUs: 20,
    maxVUs: 300,
  },
};

/** Unit shown beside a param, from the naming convention of the schemas (units in names). */
export function paramUnit(key: string): string {
  if (key.endsWith('Ms')) return 'ms, or 30s, 2m';
  if (key.endsWith('PerSec')) return 'req/s';
  if (/vus$/i.test(key)) return 'VUs';
  return '';
}

export function paramLabel(key: string): string {
  // VUs is an abbreviation in every position: "vus" → "VUs", "baselineVUs" → "Baseline VUs"
  const words = key
    .replace(/Ms$|PerSec$/, '')
    .replace(/VUs$/, ' VUs')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\bvus\b/, 'VUs');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
