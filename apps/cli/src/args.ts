import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ciOrigin } from './ci-origin';
import { gateMetricsProblem, TESTED_RUN_METRIC_KEYS } from '@poolbench/contracts/run-metric-keys';
import { UsageError } from './exit-codes';

/**
 * --fail-on: what makes the exit code 1. `regression`: a primary metric is worse; `threshold`: a
 * failed threshold; `any`: either, or a cell that cannot be judged (`incomplete`: too few or too
 * many crashed runs); `suspected`: all of that and a suspected regression; `none`: never.
 */
export const FAIL_ON = ['regression', 'threshold', 'any', 'suspected', 'none'] as const;
export type FailOn = (typeof FAIL_ON)[number];
/** --fail-on-hypothesis: fail when a hypothesis does not hold, or also when it stays unresolved. */
export const FAIL_ON_HYPOTHESIS = ['does-not-hold', 'unresolved'] as const;
export type FailOnHypothesis = (typeof FAIL_ON_HYPOTHESIS)[number];

export interface RunOptions {
  url: string;
  token: string;
  /** the POST /api/v1/experiments body */
  start: Record<string, unknown>;
  wait: boolean;
  timeoutMs: number;
  pollMs: number;
  baseline: string | null;
  /** a pool config (id or name) of this experiment every other config is gated against; excludes `baseline` */
  gateBase: string | null;
  /** tested metric keys the baseline verdict is gated on; null: every tested metric */
  metrics: string[] | null;
  /** compare only these elapsed seconds [from, to) of every run; null: whole runs */
  window: { from: number; to: number } | null;
  saveBaseline: string | null;
  failOn: FailOn;
  failOnHypothesis: FailOnHypothesis | null;
  junit: string | null;
  markdown: string | null;
  json: boolean;
  share: boolean;
  idempotencyKey: string | undefined;
}

export const USAGE = `Usage: poolbench run [options]
       poolbench cancel <experiment id>   cancel every run of an experiment that has not ended
       poolbench advise [options]         which max pool size to use? (poolbench advise --help)
       poolbench changes [options]        change points in a history since a commit (poolbench changes --help)
       poolbench baseline set|list|remove saved baselines (poolbench baseline --help)

Start a PoolBench experiment, optionally wait for it and gate on a baseline.

What to run (one of):
  --experiment <id|name>        start a saved experiment again
  --target <id|name>            inline: the target ...
  --pool-config <id|name>       ... one or more pool configs (repeat the flag) ...
  --scenario-id <id>            ... and a saved scenario, or
  --scenario <json|@file>       ... a whole scenario (template, params, requests, thresholds), or
  --scenario-template <name>    ... a template, with
  --scenario-params <json>          its parameters, and
  --request "<METHOD> <path?query>" requests (repeatable; default "GET /")
  --scenario-name <name>        name of an inline scenario (default: made from its content, e.g.
                                "Constant arrival rate 40 req/s · GET /work · 3 s · a51a6d")
  --repeats <n>                 repeats per pool config (inline default 5: with the 4 default
                                primary metrics fewer than 5 per side is always incomplete)
  --name <name>                 name of the new experiment
  --until-decided <n>           inline, two pool configs: after each pair of runs decide the second
                                against the first (sequential rule), else run one more pair, up to
                                n repeats per side; --repeats is where it starts (default 5)
  --load-generators <n>         workers each run is split across, 1-16 (k6 execution segments,
                                merged exactly; default 1, or the saved experiment's)

Waiting and gating:
  --wait                        wait until every run finished, with a progress line
  --timeout <minutes>           give up waiting after this long (default 60)
  --baseline <name>             compare with this baseline, e.g. main (implies --wait)
  --gate-base <id|name>         instead of a baseline: compare every other pool config of this
                                experiment with this one, e.g. "10 conn" (implies --wait)
  --metrics <key,key,...>       gate the baseline verdict on these metrics only, e.g. p99Ms,rps
                                (default: all tested metrics; choose them before you see results)
  --window <from>-<to>          compare only these seconds of every run, e.g. 10-60 to leave out
                                a 10 s warm-up (default: whole runs)
  --save-baseline <name>        after a successful run, make it the baseline <name>
  --fail-on <what>              regression | threshold | any | suspected | none (default any):
                                any = a regression, a failed threshold or an incomplete cell
                                (too few or too many crashed runs); suspected = any, or a
                                suspected regression; a suspicion alone fails only with suspected
  --commit <sha>                the commit this run tests (default: the CI's, e.g. $GITHUB_SHA,
                                $CI_COMMIT_SHA); shown in the experiment list and trends
  --branch <name>               its branch (default: $GITHUB_HEAD_REF/$GITHUB_REF_NAME,
                                $CI_COMMIT_REF_NAME, ...)
  --build-url <url>             the CI job's page (default: the GitHub Actions run,
                                $CI_JOB_URL, $CIRCLE_BUILD_URL, $BUILD_URL, ...)
  --fail-on-hypothesis[=unresolved]
                                fail (exit 1) when a hypothesis of the experiment does not hold;
                                =unresolved also when one stays unresolved (implies --wait)
  --junit <file>                write a JUnit XML report (implies --wait)
  --markdown <file>             write a Markdown table for a PR comment (implies --wait)
  --json                        print the result as JSON on stdout
  --share                       also create a signed-out share link and print it (off by default:
                                a CI job never publishes results unless asked)
  --idempotency-key <key>       default: derived from the CI job (GitHub, GitLab, ...) or random
  --poll-interval <ms>          how often to ask for progress while waiting (default 2000, min 200)
  --url <url>                   PoolBench address (default: $POOLBENCH_URL)
  --token <pb_...>              API token (default: $POOLBENCH_TOKEN; prefer the variable: a flag
                                shows up in process lists and CI logs)

Metric keys for --metrics: ${TESTED_RUN_METRIC_KEYS.join(', ')}.
Environment: POOLBENCH_URL (e.g. https://poolbench.example.com), POOLBENCH_TOKEN (pb_...).
Exit codes: 0 pass (or started, without waiting), 1 regression, threshold failed, incomplete or
suspected regression (as --fail-on chooses) or a hypothesis did not hold (--fail-on-hypothesis), 2 usage error (bad flags, unknown target/pool config/experiment, invalid scenario),
3 PoolBench or infrastructure error (unreachable, bad or revoked token, runs that did not succeed,
timeout).`;

/** The PoolBench address and API token, from the flags or the environment. */
/** The options every command that calls the server takes (see `connection`). */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
} as const;

export function connection(
  v: { url?: string; token?: string },
  env: NodeJS.ProcessEnv,
): { url: string; token: string } {
  const url = v.url ?? env.POOLBENCH_URL;
  const token = v.token ?? env.POOLBENCH_TOKEN;
  if (!url) throw new UsageError('set POOLBENCH_URL (or --url) to your PoolBench address');
  if (!/^https?:\/\//.test(url))
    throw new UsageError(`POOLBENCH_URL must start with http:// or https://, got "${url}"`);
  if (!token)
    throw new UsageError(
      'set POOLBENCH_TOKEN (or --token) to an API token from Settings -> API tokens',
    );
  return { url, token };
}

function json(flag: string, text: string): unknown {
  const src = text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text;
  try {
    return JSON.parse(src);
  } catch (err) {
    throw new UsageError(`${flag} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The scenario flags, shared by `run` and `advise`: a saved scenario or an inline one. */
export interface ScenarioFlags {
  'scenario-id'?: string;
  scenario?: string;
  'scenario-template'?: string;
  'scenario-params'?: string;
  'scenario-name'?: string;
  request?: string[];
}

/** The scenario part of a REST start body: `scenarioId`, or `scenario` (+ `scenarioName`). */
export function scenarioSource(v: ScenarioFlags): Record<string, unknown> {
  const sources = [v['scenario-id'], v.scenario, v['scenario-template']].filter(
    (x) => x !== undefined,
  ).length;
  if (sources !== 1)
    throw new UsageError('give exactly one of --scenario-id, --scenario or --scenario-template');
  if (v['scenario-params'] && !v['scenario-template'])
    throw new UsageError('--scenario-params goes with --scenario-template');
  if (v['scenario-name'] && v['scenario-id'])
    throw new UsageError(
      '--scenario-name names an inline scenario; --scenario-id uses a saved one',
    );
  if (v['scenario-id']) return { scenarioId: v['scenario-id'] };
  const scenario = v.scenario
    ? json('--scenario', v.scenario)
    : {
        template: v['scenario-template'],
        params: v['scenario-params'] ? json('--scenario-params', v['scenario-params']) : {},
        requests: (v.request?.length ? v.request : ['GET /']).map(parseRequestFlag),
      };
  return { scenario, ...(v['scenario-name'] ? { scenarioName: v['scenario-name'] } : {}) };
}

/** "GET /work?ms=50" -> a request spec; numeric query values become numbers. */
export function parseRequestFlag(text: string): Record<string, unknown> {
  const m = /^\s*(?:(GET|POST|PUT|PATCH|DELETE|HEAD)\s+)?(\/\S*)\s*$/i.exec(text);
  if (!m) throw new UsageError(`--request "${text}" must look like "GET /path?x=1"`);
  const url = new URL(m[2]!, 'http://x');
  const query = Object.fromEntries(
    [...url.searchParams].map(([k, v]) => [
      k,
      v !== '' && Number.isFinite(Number(v)) ? Number(v) : v,
    ]),
  );
  return {
    method: (m[1] ?? 'GET').toUpperCase(),
    path: url.pathname,
    ...(Object.keys(query).length ? { query } : {}),
  };
}

function int(flag: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${flag} must be a whole number >= ${min}`);
  return n;
}

/**
 * "p99Ms,rps" -> ["p99Ms", "rps"], checked here so a typo fails before a load test starts, not
 * after it when the comparison is asked for.
 */
function gateMetrics(flag: string | undefined, compared: boolean): string[] | null {
  if (flag === undefined) return null;
  if (!compared)
    throw new UsageError(
      '--metrics chooses which metrics the --baseline (or --gate-base) comparison gates on; give one of them too',
    );
  const keys = [
    ...new Set(
      flag
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
  const problem = gateMetricsProblem(keys);
  if (problem) throw new UsageError(`--metrics: ${problem}`);
  return keys;
}

/** "10-60" -> { from: 10, to: 60 }: elapsed seconds [from, to) of every run. */
function parseWindow(
  flag: string | undefined,
  compared: boolean,
): { from: number; to: number } | null {
  if (flag === undefined) return null;
  if (!compared)
    throw new UsageError(
      '--window chooses which seconds the --baseline (or --gate-base) comparison is over; give one of them too',
    );
  const m = /^(\d+)-(\d+)$/.exec(flag.trim());
  if (!m)
    throw new UsageError(`--window must look like 10-60 (from-to, whole seconds), got "${flag}"`);
  const w = { from: Number(m[1]), to: Number(m[2]) };
  if (w.to <= w.from)
    throw new UsageError(`--window: the end (${w.to}) must be after the start (${w.from})`);
  return w;
}

export function parseRunArgs(argv: string[], env: NodeJS.ProcessEnv): RunOptions {
  let parsed;
  try {
    parsed = parseArgs({
      // a bare --fail-on-hypothesis means its default; parseArgs wants a value for string options
      args: argv.map((a) =>
        a === '--fail-on-hypothesis' ? '--fail-on-hypothesis=does-not-hold' : a,
      ),
      allowPositionals: false,
      options: {
        experiment: { type: 'string' },
        target: { type: 'string' },
        'pool-config': { type: 'string', multiple: true },
        'scenario-id': { type: 'string' },
        scenario: { type: 'string' },
        'scenario-template': { type: 'string' },
        'scenario-params': { type: 'string' },
        'scenario-name': { type: 'string' },
        'until-decided': { type: 'string' },
        request: { type: 'string', multiple: true },
        repeats: { type: 'string' },
        'load-generators': { type: 'string' },
        name: { type: 'string' },
        wait: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        'poll-interval': { type: 'string' },
        baseline: { type: 'string' },
        'gate-base': { type: 'string' },
        metrics: { type: 'string' },
        window: { type: 'string' },
        'save-baseline': { type: 'string' },
        'fail-on': { type: 'string', default: 'any' },
        'fail-on-hypothesis': { type: 'string' },
        commit: { type: 'string' },
        branch: { type: 'string' },
        'build-url': { type: 'string' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        json: { type: 'boolean', default: false },
        share: { type: 'boolean', default: false },
        // accepted for scripts written when sharing was the default; it is the default now
        'no-share': { type: 'boolean', default: false },
        'idempotency-key': { type: 'string' },
        ...CONNECTION_OPTIONS,
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  const { url, token } = connection(v, env);
  if (!FAIL_ON.includes(v['fail-on'] as FailOn))
    throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
  const failOnHypothesis = (v['fail-on-hypothesis'] ?? null) as FailOnHypothesis | null;
  if (failOnHypothesis !== null && !FAIL_ON_HYPOTHESIS.includes(failOnHypothesis))
    throw new UsageError(
      `--fail-on-hypothesis takes no value, or =unresolved (also fail when one stays unresolved); got "${failOnHypothesis}"`,
    );

  const repeats = int('--repeats', v.repeats, 1);
  const loadGenerators = int('--load-generators', v['load-generators'], 1);
  const untilDecided = int('--until-decided', v['until-decided'], 1);
  if (untilDecided !== undefined && (untilDecided > 50 || untilDecided < (repeats ?? 5)))
    throw new UsageError(
      `--until-decided must be from the starting repeats (${repeats ?? 5}) to 50`,
    );
  if (untilDecided !== undefined && v.experiment)
    throw new UsageError('--until-decided goes with an inline experiment (--target …)');
  if (loadGenerators !== undefined && loadGenerators > 16)
    throw new UsageError('--load-generators must be at most 16');
  const inlineFlags = [
    v.target,
    v['pool-config'],
    v['scenario-id'],
    v.scenario,
    v['scenario-template'],
    v['scenario-params'],
    v.request,
  ].some((x) => x !== undefined);
  // where the experiment came from: the flags, else the CI's own variables
  const origin = ciOrigin({ commit: v.commit, branch: v.branch, buildUrl: v['build-url'] }, env);
  let start: Record<string, unknown>;
  if (v.experiment) {
    if (inlineFlags)
      throw new UsageError(
        '--experiment starts a saved experiment; do not combine it with --target, --pool-config or --scenario* flags',
      );
    start = {
      kind: 'saved',
      experiment: v.experiment,
      ...(v.name ? { name: v.name } : {}),
      ...(repeats ? { repeats } : {}),
      ...(loadGenerators ? { loadGenerators } : {}),
      ...origin,
    };
  } else {
    if (!v.target)
      throw new UsageError(
        'give --experiment <id|name>, or --target with --pool-config and a scenario',
      );
    if (!v['pool-config']?.length)
      throw new UsageError('give at least one --pool-config <id|name>');
    const scenarioRef = scenarioSource(v);
    start = {
      kind: 'inline',
      target: v.target,
      poolConfigs: v['pool-config'],
      ...scenarioRef,
      ...(untilDecided ? { untilDecided: { maxRepeats: untilDecided } } : {}),
      ...(repeats ? { repeats } : {}),
      ...(loadGenerators ? { loadGenerators } : {}),
      ...(v.name ? { name: v.name } : {}),
      ...origin,
    };
  }
  const baseline = v.baseline ?? null;
  const gateBase = v['gate-base'] ?? null;
  if (baseline !== null && gateBase !== null)
    throw new UsageError(
      'give --baseline (a saved baseline) or --gate-base (a pool config of this experiment), not both',
    );
  if (gateBase !== null && v['save-baseline'])
    throw new UsageError(
      '--save-baseline goes with --baseline; --gate-base compares configs inside one experiment and needs no baseline',
    );
  const metrics = gateMetrics(v.metrics, baseline !== null || gateBase !== null);
  const window = parseWindow(v.window, baseline !== null || gateBase !== null);
  return {
    url: url.replace(/\/+$/, ''),
    token,
    start,
    wait:
      v.wait ||
      failOnHypothesis !== null ||
      baseline !== null ||
      gateBase !== null ||
      !!v.junit ||
      !!v.markdown ||
      !!v['save-baseline'],
    timeoutMs: (int('--timeout', v.timeout, 1) ?? 60) * 60_000,
    pollMs: int('--poll-interval', v['poll-interval'], 200) ?? 2000,
    baseline,
    gateBase,
    metrics,
    window,
    saveBaseline: v['save-baseline'] ?? null,
    failOn: v['fail-on'] as FailOn,
    failOnHypothesis,
    junit: v.junit ?? null,
    markdown: v.markdown ?? null,
    json: v.json,
    share: v.share && !v['no-share'],
    idempotencyKey: v['idempotency-key'],
  };
}
