import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioValidationError, validateScenario } from './validate-scenario';
import { DATA_FILE, generateScenario } from './generate-scenario';
import { LIMITS } from './limits';
import { TEMPLATE_IDS } from './templates/registry';
import { TEMPLATE_EXAMPLES } from './testing/template-examples';

const paths = (input: unknown) => validateScenario(input).map((p) => p.path);

describe('validateScenario', () => {
  it('accepts every template example', () => {
    for (const id of TEMPLATE_IDS) expect(validateScenario(TEMPLATE_EXAMPLES[id])).toEqual([]);
  });

  it('lists every problem at once with dotted field paths', () => {
    const problems = validateScenario({
      template: 'spike',
      params: {
        baselineVUs: 10,
        spikeVUs: 5,
        spikes: 0,
        baselineMs: 'long',
        spikeHoldMs: 1000,
        colour: 'red',
      },
      requests: [
        {
          method: 'GET',
          path: 'work',
          body: { kind: 'bytes', sizeBytes: 10 },
          priority: { fraction: 1.5 },
        },
        {
          path: '/work',
          query: { ms: { randomInt: { min: 800, max: 10 } } },
          headers: { 'Bad Header': 'x', Host: 'evil' },
        },
      ],
      thresholds: [
        { metric: 'http_req_failed', expr: 'p(95)<1' },
        { metric: 'http_req_duration', expr: 'p95 < 500' },
        { metric: 'vus', expr: 'last<1' },
      ],
    });
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'params.spikes',
        'params.baselineMs',
        'params.colour',
        'params.spikeVUs',
        'requests.0.path',
        'requests.0.priority.fraction',
        'requests.0.body',
        'requests.1.query.ms.randomInt.min',
        'requests.1.headers.Bad Header',
        'requests.1.headers.Host',
        'thresholds.0.expr',
        'thresholds.1.expr',
        'thresholds.2.metric',
        'thresholds.2.expr',
      ].sort(),
    );
    expect(byPath['params.spikeVUs']).toBe('must be greater than baselineVUs');
    expect(byPath['params.colour']).toBe('is not a known field');
    expect(byPath['requests.0.body']).toMatch(/GET and HEAD/);
    expect(byPath['thresholds.0.expr']).toBe('http_req_failed is a rate metric: use rate');
  });

  it('names an unknown template', () => {
    expect(validateScenario({ template: 'soak', params: {}, requests: [] })).toEqual([
      { path: 'template', message: expect.stringMatching(/cold-start-burst/) as unknown as string },
    ]);
  });

  it('enforces the limits with the field that breaks them', () => {
    expect(
      paths({
        ...TEMPLATE_EXAMPLES.sustained,
        params: { vus: LIMITS.maxVUs + 1, durationMs: 1000 },
      }),
    ).toEqual(['params.vus']);
    expect(
      paths({
        ...TEMPLATE_EXAMPLES.sustained,
        params: { vus: 1, durationMs: LIMITS.maxDurationMs + 1 },
      }),
    ).toEqual(['params.durationMs']);
    expect(
      paths({
        ...TEMPLATE_EXAMPLES['constant-arrival-rate'],
        params: { ratePerSec: 50_001, durationMs: 1000, preAllocatedVUs: 1 },
      }),
    ).toEqual(['params.ratePerSec']);
    expect(
      paths({
        ...TEMPLATE_EXAMPLES['fixed-requests'],
        requests: [
          { method: 'POST', path: '/upload', body: { kind: 'bytes', sizeBytes: 16 * 2 ** 20 + 1 } },
        ],
      }),
    ).toEqual(['requests.0.body.sizeBytes']);
    // each stage is within limits, the sum is not
    expect(
      paths({
        template: 'ramp-up',
        params: {
          stages: [
            { durationMs: 3_600_000, targetVUs: 1 },
            { durationMs: 3_600_001, targetVUs: 1 },
          ],
        },
        requests: [{ path: '/' }],
      }),
    ).toEqual(['params.stages']);
    expect(
      paths({
        template: 'arrival-rate-sweep',
        params: {
          startRatePerSec: 40_000,
          stepRatePerSec: 6_000,
          steps: 3,
          stepDurationMs: 1000,
          preAllocatedVUs: 10,
          maxVUs: 5,
        },
        requests: [{ path: '/' }],
      }).sort(),
    ).toEqual(['params.maxVUs', 'params.stepRatePerSec']);
    expect(
      validateScenario({
        template: 'constant-arrival-rate',
        params: { ratePerSec: 100, durationMs: 1000, preAllocatedVUs: 10, maxVUs: 5 },
        requests: [{ path: '/' }],
      }),
    ).toEqual([{ path: 'params.maxVUs', message: 'must be at least preAllocatedVUs' }]);
    // 16 MiB payloads x 200 VUs exceed the memory budget
    const memory = validateScenario({
      template: 'sustained',
      params: { vus: 200, durationMs: 1000 },
      requests: [
        { method: 'POST', path: '/upload', body: { kind: 'bytes', sizeBytes: 16 * 2 ** 20 } },
      ],
    });
    expect(memory).toEqual([
      { path: 'requests', message: expect.stringMatching(/MiB/) as unknown as string },
    ]);
  });

  it('bounds randomInt so every integer of the range stays exact and equally likely', () => {
    const withRange = (min: number, max: number) =>
      validateScenario({
        ...TEMPLATE_EXAMPLES.sustained,
        requests: [{ path: '/work', query: { n: { randomInt: { min, max } } } }],
      });
    expect(withRange(-1e15, 1e15)).toEqual([]);
    expect(withRange(0, 2 ** 53)).toEqual([
      { path: 'requests.0.query.n.randomInt.max', message: 'must be at most 1000000000000000' },
    ]);
  });

  it('parseScenario throws a ScenarioValidationError carrying the problems', () => {
    try {
      parseScenario({ template: 'sustained', params: { vus: 0 }, requests: [] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioValidationError);
      expect((e as ScenarioValidationError).problems.map((p) => p.path).sort()).toEqual([
        'params.durationMs',
        'params.vus',
        'requests',
      ]);
    }
  });
});

describe('generated scripts', () => {
  it('open() only their own data file, use no remote imports or handleSummary, embed no base URL, follow no redirect, and set hosts only from the worker', () => {
    for (const id of TEMPLATE_IDS) {
      const { script, options } = generateScenario(TEMPLATE_EXAMPLES[id]);
      expect(script).toContain(`open('./${DATA_FILE}')`);
      expect(script.replace(`open('./${DATA_FILE}')`, '')).not.toMatch(/\bopen\s*\(/);
      expect(script).not.toMatch(/from\s+['"]https?:/);
      expect(script).not.toMatch(/handleSummary/);
      expect(script).not.toMatch(/https?:\/\/[a-z0-9]/i);
      expect(options).not.toHaveProperty('hosts');
      expect(options.maxRedirects).toBe(0);
      expect(script).toMatch(/__ENV\.BASE_URLS/);
    }
  });

  it('reports profile and duration per template', () => {
    const sweep = generateScenario(TEMPLATE_EXAMPLES['arrival-rate-sweep']);
    expect(sweep.estimatedDurationMs).toBe(3000);
    expect(sweep.profile).toEqual([
      { tSec: 0, rate: 20 },
      { tSec: 1, rate: 20 },
      { tSec: 1, rate: 40 },
      { tSec: 2, rate: 40 },
      { tSec: 2, rate: 60 },
      { tSec: 3, rate: 60 },
    ]);
    const spike = generateScenario(TEMPLATE_EXAMPLES.spike);
    expect(spike.estimatedDurationMs).toBe(3000);
    expect(spike.maxVUs).toBe(5);
    expect(spike.profile.map((p) => p.vus)).toEqual([0, 1, 1, 5, 5, 1, 1]);
  });
});
