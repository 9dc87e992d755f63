import { parseArgs } from 'node:util';
import { CONNECTION_OPTIONS, connection } from './args';
import { createClient } from './client';
import { EXIT, UsageError } from './exit-codes';
import type { Io } from './io';
import type { ChangePointsAnswer } from '@poolbench/contracts';

type Firing = ChangePointsAnswer['changePoints'][number]['before'];

export const CHANGES_USAGE = `Usage: poolbench changes --target <id|name> --scenario <id|name> --pool-config <id|name> [options]

Change points in the history of one target x scenario x pool config: every firing of it (schedule
or CI), as Trends draws it, split where its level moved (E-divisive means with Student's t-test;
docs/change-points.md), with the commits on either side.

  --metrics <key,key,...>   p95Ms, p99Ms, rps, errorRate (default all four)
  --since <sha|date>        fail (exit 1) when a regression change point comes after this commit
                            (a SHA or prefix a firing ran) or ISO date: "what got slower since
                            the last release?"; without it the command only reports
  --json                    print the answer as JSON
  --url, --token            as for poolbench run (POOLBENCH_URL, POOLBENCH_TOKEN)`;

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %`;
const firing = (f: Firing) =>
  `${f.name}${f.commit ? ` (${f.commit.slice(0, 12)}${f.branch ? ` on ${f.branch}` : ''})` : ''}`;

/** The answer as lines people read in a CI log. */
export function changesText(a: ChangePointsAnswer): string {
  const lines = [
    `${a.target.name} · ${a.scenario.name} · ${a.poolConfig.name}: ${a.firings} firings, ${a.changePoints.length} change ${a.changePoints.length === 1 ? 'point' : 'points'}`,
  ];
  for (const c of a.changePoints) {
    const interval = c.interval
      ? ` (95 % interval ${pct(c.interval.lower)} … ${pct(c.interval.upper)})`
      : '';
    lines.push(
      `  ${c.kind === 'regression' ? 'REGRESSION ' : 'improvement'} ${c.metric}: ${pct(c.change)}${interval}, p = ${c.pValue.toExponential(1)}`,
      `    between ${firing(c.before)} and ${firing(c.after)}; ${c.firingsBefore} firings before, ${c.firingsAfter} after`,
    );
  }
  if (a.since)
    lines.push(
      `${a.since.regressions} regression ${a.since.regressions === 1 ? 'change point' : 'change points'} since ${a.since.commit ?? a.since.at}`,
    );
  return `${lines.join('\n')}\n`;
}

/** `poolbench changes`: GET /api/v1/change-points; exit 1 on a regression after --since. */
export async function changesCommand(args: string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${CHANGES_USAGE}\n`);
    return EXIT.pass;
  }
  const parsed = (() => {
    try {
      return parseArgs({
        args,
        options: {
          ...CONNECTION_OPTIONS,
          target: { type: 'string' },
          scenario: { type: 'string' },
          'pool-config': { type: 'string' },
          metrics: { type: 'string' },
          since: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  })();
  const v = parsed.values;
  const missing = (['target', 'scenario', 'pool-config'] as const).filter((k) => !v[k]?.trim());
  if (missing.length)
    throw new UsageError(
      `${missing.map((k) => `--${k}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} required (poolbench changes --help)`,
    );
  const { url, token } = connection(v, io.env);
  const query = new URLSearchParams({
    target: v.target!,
    scenario: v.scenario!,
    poolConfig: v['pool-config']!,
  });
  if (v.metrics) query.set('metrics', v.metrics);
  if (v.since) query.set('since', v.since);
  const answer = await createClient({ baseUrl: url, token }).get<ChangePointsAnswer>(
    `/change-points?${query}`,
  );
  io.stdout.write(v.json ? `${JSON.stringify(answer, null, 2)}\n` : changesText(answer));
  return answer.since && answer.since.regressions > 0 ? EXIT.failed : EXIT.pass;
}
