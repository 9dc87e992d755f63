import { parseArgs } from 'node:util';
import { CONNECTION_OPTIONS, connection, scenarioSource, type ScenarioFlags } from './args';
import { createClient } from './client';
import { EXIT, UsageError } from './exit-codes';
import { idempotencyKey } from './idempotency-key';
import { writeWarnings } from './launch-warnings';
import type { Io } from './io';
import type { AdvisorAnswer, Experiment } from './types';
import { waitForExperiment } from './wait';

export const ADVISE_USAGE = `Usage: poolbench advise [options]

Ask PoolBench which max pool size to use: it searches the range by experiment (a coarse pass, then
refinement and repeats where neighbours are close) and answers with its evidence (docs/advisor.md).

  --target <id|name>            the target
  --pool-config <id|name>       the pool config whose max pool size is searched (the rest stays)
  --scenario-id <id>            a saved scenario, or --scenario <json|@file>, or
  --scenario-template <name>    a template with --scenario-params <json> and --request "GET /path"
  --scenario-name <name>        name of an inline scenario
  --min <n> --max <n>           the range of max pool sizes (e.g. 1 and 32)
  --p99 <ms>                    the SLO: p99 latency at most this at the scenario's rate
                                (needs a constant-arrival-rate scenario) ...
  --max-error-rate <percent>    ... and errors at most this (default 0.1)
  --max-throughput              instead of an SLO: the smallest setting with the highest throughput
  --budget <runs>               the most runs the search may spend (default 24)
  --repeats <n>                 runs per setting in each step (default 3)
  --name <name>                 name of the advisor's experiment
  --no-wait                     print the experiment's address and return at once
  --timeout <minutes>           give up waiting after this long (default 120)
  --json                        print the experiment (with advisor.state) as JSON
  --url, --token                as for poolbench run (POOLBENCH_URL, POOLBENCH_TOKEN)

Exit code: 0 a setting is recommended, 1 no answer (no setting meets the SLO, or the budget ended
before a decision: the in-doubt settings are named), 2 usage error, 3 PoolBench or infrastructure.`;

function num(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} must be a number, got "${v}"`);
  return n;
}

/** The POST /api/v1/advisors body from the flags; usage errors name the flag. */
export function parseAdviseArgs(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: false,
      options: {
        ...CONNECTION_OPTIONS,
        target: { type: 'string' },
        'pool-config': { type: 'string' },
        'scenario-id': { type: 'string' },
        scenario: { type: 'string' },
        'scenario-template': { type: 'string' },
        'scenario-params': { type: 'string' },
        'scenario-name': { type: 'string' },
        request: { type: 'string', multiple: true },
        min: { type: 'string' },
        max: { type: 'string' },
        p99: { type: 'string' },
        'max-error-rate': { type: 'string' },
        'max-throughput': { type: 'boolean' },
        budget: { type: 'string' },
        repeats: { type: 'string' },
        name: { type: 'string' },
        'no-wait': { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        'idempotency-key': { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (!v.target) throw new UsageError('give --target <id|name>');
  if (!v['pool-config']) throw new UsageError('give --pool-config <id|name>');
  const min = num('--min', v.min);
  const max = num('--max', v.max);
  if (min === undefined || max === undefined)
    throw new UsageError('give the range: --min <n> --max <n>');
  const p99 = num('--p99', v.p99);
  if ((p99 === undefined) === !v['max-throughput'])
    throw new UsageError('give exactly one objective: --p99 <ms> or --max-throughput');
  if (v['max-error-rate'] !== undefined && p99 === undefined)
    throw new UsageError('--max-error-rate goes with --p99');
  const errorPercent = num('--max-error-rate', v['max-error-rate']) ?? 0.1;
  const budget = num('--budget', v.budget);
  const repeats = num('--repeats', v.repeats);
  const timeout = num('--timeout', v.timeout) ?? 120;
  const flags: ScenarioFlags = v;
  const body: Record<string, unknown> = {
    target: v.target,
    poolConfig: v['pool-config'],
    ...scenarioSource(flags),
    min,
    max,
    objective:
      p99 !== undefined
        ? { kind: 'slo', p99Ms: p99, errorRate: errorPercent / 100 }
        : { kind: 'max-throughput' },
    ...(budget !== undefined ? { budgetRuns: budget } : {}),
    ...(repeats !== undefined ? { repeatsPerSetting: repeats } : {}),
    ...(v.name ? { name: v.name } : {}),
  };
  return {
    body,
    conn: { url: v.url, token: v.token },
    wait: !v['no-wait'],
    timeoutMs: timeout * 60_000,
    json: v.json ?? false,
    idempotencyKey: v['idempotency-key'],
  };
}

const fmt = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? '–' : n.toFixed(digits);

/** The advisor's answer as text: the answer, its evidence, and each setting's numbers. */
export function adviceText(e: Experiment, a: AdvisorAnswer): string {
  const lines = [`${e.name} (${e.id}): ${a.status}`, `  ${e.webUrl}`, '', a.summary];
  for (const ev of a.evidence) lines.push(`  - ${ev}`);
  lines.push('', `  setting  runs  meets  verdict      p99 ms   req/s    errors %  db conns`);
  for (const s of a.settings)
    lines.push(
      `  ${String(s.setting).padStart(7)}  ${String(s.runs).padStart(4)}  ${String(s.meets).padStart(5)}  ${s.verdict.padEnd(11)}  ${fmt(s.p99Median).padStart(7)}  ${fmt(s.rpsMedian).padStart(7)}  ${fmt(s.errorRateMedian === null || s.errorRateMedian === undefined ? null : s.errorRateMedian * 100, 2).padStart(8)}  ${fmt(s.dbConnectionsPeak, 0).padStart(8)}`,
    );
  for (const d of a.inDoubt ?? [])
    lines.push(`  in doubt: ${d.setting} (about ${d.runsToSettle} more runs would settle it)`);
  if (a.usl)
    lines.push(
      `  USL fit: sigma ${a.usl.sigma.toFixed(3)}, kappa ${a.usl.kappa.toFixed(4)}, peak ${a.usl.peakN === null ? 'none in range' : a.usl.peakN.toFixed(1)}`,
    );
  lines.push(`  runs used: ${a.runsUsed} of ${a.budgetRuns}`);
  return lines.join('\n');
}

/** `poolbench advise`: start the advisor, wait for its answer, print it; exit 0 on a recommendation. */
export async function adviseCommand(argv: string[], io: Io): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(`${ADVISE_USAGE}\n`);
    return EXIT.pass;
  }
  const opts = parseAdviseArgs(argv);
  const { url, token } = connection(opts.conn, io.env);
  const client = createClient({ baseUrl: url, token });
  const key = idempotencyKey(io.env, opts.body, opts.idempotencyKey);
  const started = await client.post<Experiment>('/advisors', opts.body, { 'Idempotency-Key': key });
  io.stderr.write(`started ${started.name} (${started.id}): ${started.webUrl}\n`);
  writeWarnings(started, io);
  if (!opts.wait) {
    io.stdout.write(`${started.webUrl}\n`);
    return EXIT.pass;
  }
  const e = await waitForExperiment(client, started.id, {
    timeoutMs: opts.timeoutMs,
    pollMs: 2000,
    progress: io.stderr,
  });
  const answer = e.advisor?.state ?? null;
  if (opts.json) io.stdout.write(`${JSON.stringify(e, null, 2)}\n`);
  else if (answer) io.stdout.write(`${adviceText(e, answer)}\n`);
  if (!answer) {
    io.stderr.write('poolbench: the server answered no advisor state (is it older than advise?)\n');
    return EXIT.infra;
  }
  return answer.status === 'decided' && answer.recommended !== null ? EXIT.pass : EXIT.failed;
}
