import type { HdrStatsMs } from './hdr';
import type { RunChecks } from './run-checks';
import { withoutHistograms, type CustomMetrics } from './run-custom-metrics';
import type {
  ResourceSummary,
  RunDelivery,
  RunStep,
  RunSubMetric,
  RunSummary,
} from './run-summary';

/** The additive load facts of one second or of a whole run (k6 output counters). */
export interface SummaryCounters {
  requests: number;
  failed: number;
  status: Record<string, number>;
  dataSentBytes: number;
  dataReceivedBytes: number;
  iterations: number;
  droppedIterations: number;
  /** of `failed`, 2xx requests that failed a scenario check */
  checkFailed?: number;
}

/** Trend statistics by k6 metric; a missing one stays null in the summary. */
export type SummaryTrends = Partial<
  Record<
    | 'http_req_duration'
    | 'http_req_waiting'
    | 'http_req_connecting'
    | 'http_req_tls_handshaking'
    | 'http_req_blocked'
    | 'iteration_duration',
    HdrStatsMs | null
  >
>;

/** The load phase in unix ms, as the k6 output's end line reports it. */
export interface LoadPhase {
  startMs: number;
  endMs: number;
}

type N = number | bigint | null | undefined;

/** The summed resource sample columns (instance -1) a summary reads. */
export interface ResourceTotalsRow {
  cpuPercent: N;
  rssBytes: N;
  poolWaitMs: N;
  poolInUse: N;
  poolAcquireTimeouts: N;
  dbTotal: N;
  dbNewConns: N;
  dbTooManyClients: N;
  /** the upstream HTTP pool (lab target's blob store); absent in rows from before it was sampled */
  upstreamWaitMs?: N;
  upstreamInUse?: N;
}

const nums = (xs: N[]) =>
  xs
    .map((x) => (typeof x === 'bigint' ? Number(x) : x))
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const maxOf = (xs: number[]) => (xs.length ? Math.max(...xs) : null);
const sumOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) : null);

/** Target resources over the seconds given: gauges averaged and peaked, per-second counters summed. */
export function summarizeResources(totals: readonly ResourceTotalsRow[]): ResourceSummary {
  const col = (k: keyof ResourceTotalsRow) => nums(totals.map((t) => t[k] ?? null));
  const cpu = col('cpuPercent');
  const rss = col('rssBytes');
  const wait = col('poolWaitMs');
  return {
    cpuMeanPercent: meanOf(cpu),
    cpuPeakPercent: maxOf(cpu),
    rssMeanBytes: meanOf(rss),
    rssPeakBytes: maxOf(rss),
    poolWaitMsMean: meanOf(wait),
    poolWaitMsPeak: maxOf(wait),
    poolInUsePeak: maxOf(col('poolInUse')),
    poolAcquireTimeouts: sumOf(col('poolAcquireTimeouts')),
    dbConnectionsPeak: maxOf(col('dbTotal')),
    dbNewConnsTotal: sumOf(col('dbNewConns')),
    dbTooManyClients: sumOf(col('dbTooManyClients')),
    // only when the target reported its upstream pool, so summaries of other targets keep their shape
    ...upstreamSummary(col('upstreamWaitMs'), col('upstreamInUse')),
  };
}

function upstreamSummary(
  wait: number[],
  inUse: number[],
): Pick<ResourceSummary, 'upstreamWaitMsMean' | 'upstreamWaitMsPeak' | 'upstreamInUsePeak'> {
  if (wait.length === 0 && inUse.length === 0) return {};
  return {
    upstreamWaitMsMean: meanOf(wait),
    upstreamWaitMsPeak: maxOf(wait),
    upstreamInUsePeak: maxOf(inUse),
  };
}

/** Counters with nothing counted yet. */
export function emptySummaryCounters(): SummaryCounters {
  return {
    requests: 0,
    failed: 0,
    status: {},
    dataSentBytes: 0,
    dataReceivedBytes: 0,
    iterations: 0,
    droppedIterations: 0,
  };
}

/** One stored per-second row's counters (RunSecond), as Postgres hands them back. */
export interface StoredSecondCounters {
  second: number;
  requests: number;
  failed: number;
  /** parsed by @poolbench/db's parseRunSecond */
  statusCounts: Record<string, number> | null;
  bytesSent: number | bigint;
  bytesReceived: number | bigint;
  iterations: number;
  droppedIterations: number;
  /** of `failed`, requests with a success status that failed a scenario check */
  checkFailed: number;
  vusMax: number;
  /** k6's vus_max gauge (VUs allocated); null in rows from before it was recorded */
  vusAllocated: number | null;
}

/**
 * Counters of stored seconds added up, the highest vusMax and allocated VUs (null when no second
 * recorded them), and the seconds that carried load.
 */
export function sumStoredSeconds(rows: readonly StoredSecondCounters[]): {
  counters: SummaryCounters;
  vusMax: number | null;
  vusAllocatedMax: number | null;
  loadSeconds: number[];
} {
  const counters = emptySummaryCounters();
  let vusMax: number | null = null;
  let vusAllocatedMax: number | null = null;
  const loadSeconds: number[] = [];
  for (const r of rows) {
    counters.requests += r.requests;
    counters.failed += r.failed;
    counters.dataSentBytes += Number(r.bytesSent);
    counters.dataReceivedBytes += Number(r.bytesReceived);
    counters.iterations += r.iterations;
    counters.droppedIterations += r.droppedIterations;
    if (r.checkFailed) counters.checkFailed = (counters.checkFailed ?? 0) + r.checkFailed;
    for (const [k, n] of Object.entries(r.statusCounts ?? {}))
      counters.status[k] = (counters.status[k] ?? 0) + n;
    vusMax = Math.max(vusMax ?? 0, r.vusMax);
    if (r.vusAllocated !== null) vusAllocatedMax = Math.max(vusAllocatedMax ?? 0, r.vusAllocated);
    // A second with only the vus gauge is setup(), teardown() or idle time, not load.
    if (r.requests > 0 || r.iterations > 0) loadSeconds.push(r.second);
  }
  return { counters, vusMax, vusAllocatedMax, loadSeconds };
}

/**
 * Load time in ms over the elapsed-seconds window [from, to) (whole run: [-inf, inf)).
 * With the load phase known: the part of [start, end) inside the window, where `t0Ms` is the
 * unix ms of elapsed second 0, so partial first and last seconds count by the fraction the load
 * was active in them. Without it (k6 died before its end line): whole seconds from the first to
 * the last second in the window that carried load.
 */
export function loadTimeMs(
  load: LoadPhase | null | undefined,
  t0Ms: number | null,
  loadSeconds: readonly number[],
  window: { from: number; to: number } = { from: -Infinity, to: Infinity },
): number {
  if (load && load.endMs > load.startMs) {
    const from = t0Ms === null ? load.startMs : Math.max(load.startMs, t0Ms + window.from * 1000);
    const to = t0Ms === null ? load.endMs : Math.min(load.endMs, t0Ms + window.to * 1000);
    return Math.max(0, to - from);
  }
  const inWindow = loadSeconds.filter((s) => s >= window.from && s < window.to);
  return inWindow.length ? (Math.max(...inWindow) - Math.min(...inWindow) + 1) * 1000 : 0;
}

export interface RunSummaryInput {
  counters: SummaryCounters;
  trends: SummaryTrends;
  /** per-second rows the summary covers */
  seconds: number;
  vusMax: number | null;
  /** highest allocated VUs (k6's vus_max), when the load engine reported it */
  vusAllocatedMax?: number | null;
  /** from loadTimeMs */
  loadMs: number;
  load?: LoadPhase | null;
  resources: readonly ResourceTotalsRow[];
  /** how samples reached k6's output, when its end line said */
  delivery?: RunDelivery | null;
  steps?: RunStep[];
  stepsOverflow?: number;
  /** k6 checks over the seconds the summary covers (sumChecks), null without any */
  checks?: RunChecks | null;
  subMetrics?: RunSubMetric[];
  subMetricsDropped?: number;
  /** the script's own metrics over the seconds the summary covers (sumCustomMetrics) */
  custom?: CustomMetrics | null;
  customDropped?: number;
}

/**
 * The one RunSummary builder: the worker at the end of a run, a run finalized from its stored
 * seconds, and every time window of the compare view call it, so rps, durationMs and errorRate
 * mean the same everywhere (docs/metrics.md).
 */
export function buildRunSummary(i: RunSummaryInput): RunSummary {
  const c = i.counters;
  const t = i.trends;
  return {
    requests: c.requests,
    failed: c.failed,
    ...(c.checkFailed ? { checkFailed: c.checkFailed } : {}),
    errorRate: c.requests > 0 ? c.failed / c.requests : null,
    rps: i.loadMs > 0 ? c.requests / (i.loadMs / 1000) : null,
    durationMs: i.loadMs,
    seconds: i.seconds,
    bytesSent: c.dataSentBytes,
    bytesReceived: c.dataReceivedBytes,
    iterations: c.iterations,
    droppedIterations: c.droppedIterations,
    vusMax: i.vusMax,
    ...(i.vusAllocatedMax !== undefined ? { vusAllocatedMax: i.vusAllocatedMax } : {}),
    statusCounts: c.status,
    latency: t.http_req_duration ?? null,
    waiting: t.http_req_waiting ?? null,
    connecting: t.http_req_connecting ?? null,
    tlsHandshaking: t.http_req_tls_handshaking ?? null,
    blocked: t.http_req_blocked ?? null,
    iteration: t.iteration_duration ?? null,
    resources: summarizeResources(i.resources),
    loadStartMs: i.load?.startMs ?? null,
    loadEndMs: i.load?.endMs ?? null,
    ...(i.delivery ? { delivery: i.delivery } : {}),
    ...(i.steps?.length ? { steps: i.steps } : {}),
    ...(i.stepsOverflow ? { stepsOverflow: i.stepsOverflow } : {}),
    ...(i.checks ? { checks: i.checks } : {}),
    ...(i.subMetrics?.length ? { subMetrics: i.subMetrics } : {}),
    ...(i.subMetricsDropped ? { subMetricsDropped: i.subMetricsDropped } : {}),
    ...(i.custom ? { custom: withoutHistograms(i.custom) } : {}),
    ...(i.customDropped ? { customDropped: i.customDropped } : {}),
  };
}
