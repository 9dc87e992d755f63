import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateThresholds, scriptThresholds } from '@poolbench/scenarios';
import { defaultK6Bin } from './k6-binary';
import { parseOutputLine, type EndLine } from './ndjson-line';
import { subMetricsOf } from './run-k6';
import { SummaryAccumulator } from './summary-accumulator';
import { thresholdContextFromSummary } from './threshold-context';
import { ensureBuilt } from './testing/build';
import { startTestServer, type TestServer } from './testing/test-server';

let server: TestServer;
beforeAll(async () => {
  ensureBuilt();
  server = await startTestServer();
}, 600_000);
afterAll(async () => server?.close());

// Thresholds on sub-metrics of every kind, each far from its value so interpolation (k6) and
// nearest rank (the histograms) cannot disagree; a series with no samples too.
const THRESHOLDS = {
  'http_req_duration{name:slow}': ['p(95)>15', 'max<5', 'med>15'],
  'http_req_duration{name:me}': ['p(99)<15', 'avg>100'],
  'http_req_failed{name:fail}': ['rate>0.9'],
  'http_req_failed{name:me}': ['rate<0.01', 'rate>0.5'],
  'http_reqs{status:503}': ['count>10', 'count<5'],
  'http_reqs{name:me,method:GET}': ['count>100'],
  'checks{check:odd}': ['rate>0.6', 'rate<0.6'],
  'iteration_duration{scenario:load}': ['p(95)<5000'],
  'http_req_duration{name:never}': ['p(95)<1', 'max>1'],
  // a group's duration: k6's group_duration of one group
  'group_duration{group:::slow}': ['p(95)>15', 'max<5'],
};

interface ExportMetric {
  thresholds?: Record<string, boolean>;
  count?: number;
  passes?: number;
  fails?: number;
  max?: number;
}

describe('sub-metric thresholds through the poolbench output', () => {
  it("give k6's own verdict for every threshold, from series that count what k6 counts", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pb-submetrics-'));
    const script = `
      import http from 'k6/http';
      import { check, group } from 'k6';
      export const options = {
        scenarios: { load: { executor: 'constant-arrival-rate', rate: 100, timeUnit: '1s', duration: '3s', preAllocatedVUs: 10 } },
        thresholds: ${JSON.stringify(THRESHOLDS)},
      };
      export default function () {
        http.get(__ENV.BASE + '/', { tags: { name: 'me' } });
        if (__ITER % 5 === 0) http.get(__ENV.BASE + '/status/503', { tags: { name: 'fail' } });
        if (__ITER % 10 === 0)
          group('slow', () => { http.get(__ENV.BASE + '/sleep?ms=20', { tags: { name: 'slow' } }); });
        check(null, { odd: () => __ITER % 2 === 1 });
      }`;
    try {
      await writeFile(join(dir, 'script.js'), script);
      const out = join(dir, 'out.ndjson');
      const exported = join(dir, 'summary.json');
      // k6 with its own thresholds on, beside the output: one run, two accounts of it
      const code = await new Promise<number>((resolve) =>
        execFile(
          defaultK6Bin(),
          [
            'run',
            '--address',
            '',
            '--quiet',
            '--no-usage-report',
            '--summary-mode=compact',
            `--summary-export=${exported}`,
            '-e',
            `BASE=${server.url}`,
            '--out',
            `poolbench=${out}`,
            join(dir, 'script.js'),
          ],
          { timeout: 60_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } },
          (err) => resolve(err ? (typeof err.code === 'number' ? err.code : -1) : 0),
        ),
      );
      expect(code).toBe(99); // some thresholds crossed
      const acc = new SummaryAccumulator();
      let end: EndLine | undefined;
      for (const line of (await readFile(out, 'utf8')).split('\n').filter(Boolean)) {
        const l = parseOutputLine(line);
        if (l.type === 'second') acc.add(l);
        else end = l;
      }
      const series = subMetricsOf(end);
      const k6 = (
        JSON.parse(await readFile(exported, 'utf8')) as {
          metrics: Record<string, ExportMetric>;
        }
      ).metrics;

      // the series k6 made for its thresholds count what ours count
      const byName = new Map(series.map((s) => [s.name, s]));
      expect(byName.get('http_reqs{status:503}')?.sum).toBe(k6['http_reqs{status:503}']?.count);
      expect(byName.get('http_reqs{name:me,method:GET}')?.sum).toBe(
        k6['http_reqs{name:me,method:GET}']?.count,
      );
      const odd = k6['checks{check:odd}']!;
      expect(byName.get('checks{check:odd}')?.rate).toBe(odd.passes! / (odd.passes! + odd.fails!));
      expect(byName.get('http_req_failed{name:fail}')?.count).toBe(
        k6['http_req_failed{name:fail}']!.passes! + k6['http_req_failed{name:fail}']!.fails!,
      );
      const slowMax = k6['http_req_duration{name:slow}']!.max!;
      const ourMax = byName.get('http_req_duration{name:slow}')?.trend?.max ?? 0;
      expect(Math.abs(ourMax - slowMax) / slowMax).toBeLessThan(0.002);
      expect(byName.get('http_req_duration{name:never}')).toMatchObject({ type: 'none', count: 0 });
      // the other values of the tags the thresholds name are kept too
      expect(byName.get('http_req_duration{name:fail}')?.count).toBeGreaterThan(50);
      expect(end?.subMetricsDropped).toBeUndefined();

      // every threshold: PoolBench's verdict is k6's
      const { applied, skipped } = scriptThresholds({ thresholds: THRESHOLDS });
      expect(skipped).toEqual([]);
      const summary = acc.summary();
      const ours = evaluateThresholds(
        applied,
        thresholdContextFromSummary(summary, summary.seconds, series),
      );
      const theirs = applied.map((t) => {
        const failed = k6[t.metric]?.thresholds?.[t.expr];
        if (failed === undefined) throw new Error(`k6 did not report ${t.metric} ${t.expr}`);
        return !failed;
      });
      expect(ours.map((r) => `${r.metric} ${r.expr} ${r.pass}`)).toEqual(
        applied.map((t, i) => `${t.metric} ${t.expr} ${theirs[i]}`),
      );
      expect(new Set(theirs)).toEqual(new Set([true, false]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
