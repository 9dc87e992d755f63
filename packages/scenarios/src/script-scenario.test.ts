import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits';
import { scenarioPlannedMs } from './planned-duration';
import {
  isScriptScenario,
  k6DurationMs,
  scriptPlannedMs,
  ScriptScenarioSchema,
  scriptScenarioRows,
  scriptThresholds,
} from './script-scenario';
import { flattenIssues } from './validate-scenario';

const problems = (input: unknown) => {
  const r = ScriptScenarioSchema.safeParse(input);
  return r.success ? [] : flattenIssues(r.error.issues);
};

describe('script scenarios', () => {
  it('a script with files is valid; limits and file names are named', () => {
    expect(problems({ template: 'k6-script', source: 'export default function () {}' })).toEqual(
      [],
    );
    expect(
      problems({
        template: 'k6-script',
        source: 'x'.repeat(LIMITS.maxScriptBytes + 1),
        files: { '../etc/passwd': 'x', 'script.js': 'y' },
      }),
    ).toEqual([
      { path: 'source', message: 'must be at most 256 KiB' },
      {
        path: 'files.../etc/passwd',
        message: 'must be a plain file name of letters, digits, . _ - (no folders)',
      },
      { path: 'files.script.js', message: 'script.js is the script itself' },
    ]);
    const big = Object.fromEntries(
      Array.from({ length: 2 }, (_, i) => [
        `f${i}.csv`,
        'x'.repeat(LIMITS.maxScriptFilesBytes / 2 + 1),
      ]),
    );
    expect(problems({ template: 'k6-script', source: 's', files: big })).toEqual([
      { path: 'files', message: 'may hold at most 512 KiB of files' },
    ]);
    expect(isScriptScenario({ template: 'k6-script' })).toBe(true);
    expect(isScriptScenario({ template: 'sustained' })).toBe(false);
  });

  it("reads k6's durations, and plans the inspected total capped by maxDurationMs", () => {
    expect(k6DurationMs('1m30s')).toBe(90_000);
    expect(k6DurationMs('10m30s')).toBe(630_000);
    expect(k6DurationMs('500ms')).toBe(500);
    expect(k6DurationMs('1h0m0s')).toBe(3_600_000);
    expect(k6DurationMs('soon')).toBeNull();
    expect(k6DurationMs('1m soon')).toBeNull();
    const s = ScriptScenarioSchema.parse({
      template: 'k6-script',
      source: 's',
      inspected: { options: {}, totalDuration: '30s' },
    });
    expect(scriptPlannedMs(s)).toBe(30_000);
    expect(scriptPlannedMs({ ...s, inspected: { options: {}, totalDuration: '2h' } })).toBe(
      600_000,
    );
    expect(scriptPlannedMs({ ...s, inspected: undefined })).toBe(600_000);
    // the planned load is the stop time: a run may hold its generator that long (an endless
    // teardown does), whatever its scenarios' own total says
    expect(scenarioPlannedMs(s)).toBe(600_000);
    expect(scenarioPlannedMs({ ...s, maxDurationMs: 15_000 })).toBe(15_000);
    expect(
      scenarioPlannedMs({
        template: 'sustained',
        params: { vus: 1, durationMs: 5000 },
        requests: [{ path: '/' }],
      }),
    ).toBe(5000);
    expect(scenarioPlannedMs({ template: 'nope' })).toBeNull();
  });

  it("takes the script's thresholds PoolBench evaluates, and says why not for the others", () => {
    expect(
      scriptThresholds({
        thresholds: {
          http_req_failed: ['rate<0.01'],
          http_req_duration: [{ threshold: 'p(95)<500', abortOnFail: true }, 'avg<200'],
          'http_req_duration{scenario:login}': ['p(99)<900'],
          'checks{ group : ::api }': ['rate>0.99'],
          checks: ['rate>0.9'],
          my_counter: ['count>3'],
          'my_trend{name:x}': ['p(95)<1'],
          http_req_receiving: ['p(95)<1'],
          'http_reqs{status:200}': ['p(95)<1'],
        },
      }),
    ).toEqual({
      applied: [
        { metric: 'http_req_failed', expr: 'rate<0.01', abortOnFail: false },
        { metric: 'http_req_duration', expr: 'p(95)<500', abortOnFail: false },
        { metric: 'http_req_duration', expr: 'avg<200', abortOnFail: false },
        { metric: 'http_req_duration{scenario:login}', expr: 'p(99)<900', abortOnFail: false },
        { metric: 'checks{ group : ::api }', expr: 'rate>0.99', abortOnFail: false },
        { metric: 'checks', expr: 'rate>0.9', abortOnFail: false },
        { metric: 'my_counter', expr: 'count>3', abortOnFail: false },
        { metric: 'my_trend{name:x}', expr: 'p(95)<1', abortOnFail: false },
      ],
      skipped: [
        {
          metric: 'http_req_receiving',
          expr: 'p(95)<1',
          reason: "k6's http_req_receiving is not kept by PoolBench's output",
        },
        {
          metric: 'http_reqs{status:200}',
          expr: 'p(95)<1',
          reason: 'http_reqs{status:200} is a counter metric: use count, rate',
        },
      ],
    });
    expect(scriptThresholds({})).toEqual({ applied: [], skipped: [] });
  });

  it("lists a script's k6 scenarios with the numbers that size them", () => {
    expect(
      scriptScenarioRows({
        scenarios: {
          browse: { executor: 'constant-vus', vus: 5, duration: '20s', exec: 'default' },
          login: {
            executor: 'ramping-arrival-rate',
            startRate: 0,
            timeUnit: '1s',
            preAllocatedVUs: 10,
            stages: [
              { target: 50, duration: '10s' },
              { target: 0, duration: '5s' },
            ],
          },
          odd: 'not an object',
        },
      }),
    ).toEqual([
      { name: 'browse', executor: 'constant-vus', shape: 'vus 5, duration 20s' },
      {
        name: 'login',
        executor: 'ramping-arrival-rate',
        shape: 'timeUnit 1s, startRate 0, preAllocatedVUs 10, 2 stages',
      },
      { name: 'odd', executor: '?', shape: '' },
    ]);
    expect(scriptScenarioRows({})).toEqual([]);
    expect(scriptScenarioRows({ scenarios: null })).toEqual([]);
  });
});
