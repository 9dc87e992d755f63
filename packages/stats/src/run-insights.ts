import type { RunSummary } from './run-summary';
import {
  MAX_DROPPED_SHARE,
  MAX_LATE_REQUEST_SHARE,
  runValidity,
  sharePercent,
} from './run-validity';

/**
 * What makes a run's numbers suspect, or tells that the run did not test what it was meant to,
 * computed from data every run already stores (its summary, per-second rows, environment,
 * snapshots). Like a lab notebook's remarks: each has a severity, one line of explanation and a
 * fix. `critical`: the numbers do not describe the load that was asked for, so the run is invalid
 * (`runValidity`) and left out of verdicts; `warning`: they describe something else as well (a
 * saturated CPU, a busy machine, a few dropped iterations); `info`: the run is valid but may not
 * answer the question (the pool never waited).
 */
export type InsightSeverity = 'critical' | 'warning' | 'info';

export const INSIGHT_CODES = [
  'load-not-offered',
  'vus-exhausted',
  'generator-cpu-saturated',
  'samples-late',
  'target-cpu-saturated',
  'pool-never-waited',
  'db-connection-limit',
  'coordinated-omission-risk',
  'machine-busy',
  'heavy-disturbance',
] as const;
export type InsightCode = (typeof INSIGHT_CODES)[number];

export interface RunInsight {
  code: InsightCode;
  severity: InsightSeverity;
  /** one line: what was seen, with the numbers */
  message: string;
  /** what to do about it */
  fix: string;
}

export interface RunInsightInput {
  summary: RunSummary | null;
  /** the scenario's load model: open (arrival rate) or closed (VUs) */
  model: 'open' | 'closed' | null;
  /** arrival-rate runs: the most VUs k6 was allowed to allocate */
  maxVUs?: number | null;
  /** arrival-rate runs: the iterations the rate asks for over the planned duration */
  plannedIterations?: number | null;
  /** the pool config's maximum connections per instance, when it has one */
  poolMax?: number | null;
  instanceCount?: number | null;
  /** GOMAXPROCS-style CPU limit per target instance, when the run set one */
  targetCpuLimit?: number | null;
  /** the CPUs the target was pinned to when the run isolated it from k6 (kernel list, "0" or "0-3") */
  targetCpuList?: string | null;
  /** cores of the machine the run was on, and its 1-minute load average when the run started */
  cpuCount?: number | null;
  loadAvg1mAtStart?: number | null;
  /** the load generators' own k6 CPU peaks, % of one core (distributed runs record them) */
  generatorCpuPeaks?: number[];
  /** CPU used during the run outside it (its worker, k6, the target, the database), % of one core */
  outsideCpuPercent?: number | null;
  /** the same, over the run's preparation just before its load started, % of one core */
  outsideCpuPercentBeforeStart?: number | null;
  /**
   * per-second requests, active VUs and latency (median, slowest) of the run, in order; seconds
   * without a request are kept, since a stall is a run of them
   */
  seconds?: InsightSecond[];
}

export interface InsightSecond {
  requests: number;
  p50Ms: number | null;
  /** k6's active VUs in the second; absent where not recorded */
  vus?: number | null;
  /** the slowest request that ended in the second */
  maxMs?: number | null;
}

/**
 * A stall of a closed model: a second in which the VUs sent less than this share of what they send
 * per second at the run's median pace
 */
export const STALL_RATE_SHARE = 0.5;
/** ... counted only where the median pace gives at least this many requests, so noise is no stall */
export const STALL_MIN_EXPECTED = 20;
/** ... and a request ending in the stall or the second after it took this many median latencies */
export const STALL_LATENCY_FACTOR = 5;

/**
 * Below this peak per-second mean acquire wait (ms) no request waited for a connection: one
 * request that waited a 5 ms query among 100 in a second already lifts the mean to 0.05 ms.
 */
export const NO_WAIT_MS = 0.05;

/** How many CPUs a kernel cpu list names ("0-2,5" → 4); null when absent or unreadable. */
export function cpuListLength(list: string | null | undefined): number | null {
  if (!list) return null;
  let n = 0;
  for (const part of list.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const span = (m[2] === undefined ? Number(m[1]) : Number(m[2])) - Number(m[1]) + 1;
    if (span < 1) return null;
    n += span;
  }
  return n;
}

const pct = (v: number) => `${v >= 10 ? Math.round(v) : v.toFixed(1)} %`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const INSIGHT_SEVERITY_ORDER: Record<InsightSeverity, number> = {
  critical: 0,
  warning: 1,
  info: 2,
};

/** The run's insights, most severe first. */
export function runInsights(input: RunInsightInput): RunInsight[] {
  const out: RunInsight[] = [];
  const s = input.summary;
  if (!s) return out;

  // 1. the load asked for was not offered, or its numbers miss part of what was sent: beyond the
  // bounds of `runValidity` the run is invalid (critical), within them a warning
  const validity = runValidity(input);
  const invalidBy = (code: string) => validity.reasons.some((r) => r.code === code);
  const planned = s.iterations + s.droppedIterations;
  const asked = input.model === 'open' ? (input.plannedIterations ?? null) : null;
  if (s.droppedIterations > 0 || invalidBy('load-not-offered')) {
    const seen = [
      s.droppedIterations > 0
        ? `k6 dropped ${s.droppedIterations} of ${planned} planned iterations (${sharePercent(s.droppedIterations / planned)})`
        : null,
      asked !== null && asked > 0 && s.iterations < asked
        ? `${s.iterations} of the ${Math.round(asked)} iterations the rate asks for ran (${sharePercent(s.iterations / asked)} of the target rate)`
        : null,
    ].filter((x) => x !== null);
    const critical = invalidBy('load-not-offered');
    out.push({
      code: 'load-not-offered',
      severity: critical ? 'critical' : 'warning',
      message: critical
        ? `${seen.join('; ')}: the load asked for was not offered, so latency and throughput describe a lighter load; the run is invalid and left out of verdicts`
        : `${seen.join('; ')}: within the ${100 * MAX_DROPPED_SHARE} % a run may drop, so it counts, but it offered slightly less than asked`,
      fix: 'raise preAllocatedVUs/maxVUs (the target may be slower than the VUs allow), lower the rate, or give the load generator more CPU (pin CPUs, more load generators)',
    });
  }
  const allocated = s.vusAllocatedMax ?? null;
  if (input.model === 'open' && input.maxVUs && allocated !== null && allocated >= input.maxVUs) {
    out.push({
      code: 'vus-exhausted',
      severity: s.droppedIterations > 0 || invalidBy('load-not-offered') ? 'warning' : 'info',
      message: `k6 allocated all ${input.maxVUs} VUs it was allowed: at this rate every VU was waiting on a response at some point`,
      fix: 'raise maxVUs so slow responses cannot hold the offered rate down',
    });
  }
  const hotGenerators = (input.generatorCpuPeaks ?? []).filter((c) => c >= 90);
  if (hotGenerators.length) {
    out.push({
      code: 'generator-cpu-saturated',
      severity: 'warning',
      message: `${hotGenerators.length} load generator(s) peaked at ${pct(Math.max(...hotGenerators))} of a core: k6 itself may have added latency`,
      fix: 'split the run across more load generators, or pin k6 and the target to separate CPUs',
    });
  }

  const late = s.delivery ?? null;
  if (late && late.lateSamples > 0) {
    const timing = [
      late.graceMs !== null ? `a second waited ${late.graceMs} ms` : null,
      late.maxLagMs !== null ? `the slowest sample took ${late.maxLagMs} ms` : null,
    ].filter((x) => x !== null);
    const lag = timing.length ? ` (${timing.join('; ')})` : '';
    const critical = invalidBy('samples-late');
    out.push({
      code: 'samples-late',
      severity: critical ? 'critical' : 'warning',
      message: `${late.lateSamples} sample(s), ${late.lateRequests} of them requests, reached k6's output after their second was written${lag}: they are in no second, total or percentile${critical ? `; more than ${100 * MAX_LATE_REQUEST_SHARE} % of the requests, so the run is invalid and left out of verdicts` : ''}`,
      fix: 'give the load generator more CPU (pin CPUs, more load generators), or raise POOLBENCH_OUTPUT_GRACE_MS on the worker',
    });
  }

  // 2. the target's CPU, not its pool, set the numbers
  const cores = input.cpuCount ?? null;
  const cpuPeak = s.resources.cpuPeakPercent;
  const cpuMean = s.resources.cpuMeanPercent;
  if (cores && cpuPeak !== null && cpuMean !== null) {
    const instances = Math.max(1, input.instanceCount ?? 1);
    const perInstance = Math.min(input.targetCpuLimit ?? cores, cores);
    const pinned = cpuListLength(input.targetCpuList) ?? cores;
    const capacity = 100 * Math.min(cores, pinned, instances * perInstance);
    if (cpuPeak >= 0.9 * capacity && cpuMean >= 0.75 * capacity) {
      out.push({
        code: 'target-cpu-saturated',
        severity: 'warning',
        message: `the target's CPU was pinned at its limit (mean ${pct(cpuMean)}, peak ${pct(cpuPeak)} of ${pct(capacity)} available): latency reflects the CPU as much as the pool`,
        fix: 'lower the load, raise the CPU limit, or pin the target to its own CPUs so the pool is what limits',
      });
    }
  }

  // 3. the pool was not what was tested: taking an idle connection costs microseconds (a Go pool
  // reports ~0.002 ms), so "never waited" is a peak per-second mean wait below NO_WAIT_MS
  const waitPeak = s.resources.poolWaitMsPeak;
  const inUsePeak = s.resources.poolInUsePeak;
  if (
    waitPeak !== null &&
    waitPeak < NO_WAIT_MS &&
    (s.resources.poolAcquireTimeouts ?? 0) === 0 &&
    inUsePeak !== null
  ) {
    const of = input.poolMax ? ` of ${input.poolMax}` : '';
    out.push({
      code: 'pool-never-waited',
      severity: 'info',
      message: `no request ever waited for a connection (at most ${inUsePeak}${of} in use at once): this scenario does not stress the pool, so pool configs will look alike`,
      fix: 'raise the rate or VUs, hold connections longer, or compare smaller pools',
    });
  }
  if ((s.resources.dbTooManyClients ?? 0) > 0) {
    out.push({
      code: 'db-connection-limit',
      severity: 'warning',
      message: `the database refused ${s.resources.dbTooManyClients} connection attempt(s) for its connection limit: errors and latency include those refusals`,
      fix: 'raise the database role connection limit or lower pool max × instances below it, unless the limit is what is tested',
    });
  }

  // 4. coordinated omission: a closed model's VUs wait on their responses, so while the target
  // stalls they send nothing, and the requests that would have met the stall are never measured
  const stall = input.model === 'closed' ? closedModelStall(input.seconds ?? []) : null;
  if (stall) {
    out.push({
      code: 'coordinated-omission-risk',
      severity: 'warning',
      message: `the VUs sent ${stall.requests} requests in ${stall.seconds} second(s) where their median pace sends ~${Math.round(stall.expected)}, while a request took ${Math.round(stall.slowestMs)} ms (median ${stall.medianMs.toFixed(1)} ms): with a fixed number of VUs waiting on responses, the requests due during the stall were never sent, so the latency percentiles miss them (coordinated omission)`,
      fix: 'use an arrival-rate scenario (constant-arrival-rate) to measure latency at a fixed offered load',
    });
  }

  // 5. the machine was busy before the run started: other processes' CPU while it was prepared;
  // runs recorded without it fall back to the 1-minute load average, which also counts the
  // worker's own previous runs
  const before = input.outsideCpuPercentBeforeStart ?? null;
  const load = input.loadAvg1mAtStart ?? null;
  if (cores && before !== null) {
    if (before >= 25 * cores)
      out.push({
        code: 'machine-busy',
        severity: 'warning',
        message: `other processes used ${pct(before)} of a core on average while the run was prepared (${pct(before / cores)} of the machine's ${cores} cores): it started on a busy machine`,
        fix: 'run when the machine is quiet, or on a dedicated worker; compare against runs made in the same conditions',
      });
  } else if (cores && load !== null && load > cores) {
    out.push({
      code: 'machine-busy',
      severity: 'warning',
      message: `the machine's load average was ${load.toFixed(2)} on ${cores} cores when the run started: other work shared the CPUs with k6 and the target`,
      fix: 'run when the machine is quiet, or on a dedicated worker; compare against runs made in the same conditions',
    });
  }

  // 6. other work took a large share of the machine while the run ran
  const outside = input.outsideCpuPercent ?? null;
  if (cores && outside !== null && outside >= 25 * cores) {
    out.push({
      code: 'heavy-disturbance',
      severity: 'warning',
      message: `other processes used ${pct(outside)} of a core on average during the run (${pct(outside / cores)} of the machine's ${cores} cores): its numbers include their interference`,
      fix: 'stop other work on the machine, run on a dedicated worker, or compare only runs with a similar disturbance',
    });
  }

  return out.sort(
    (a, b) => INSIGHT_SEVERITY_ORDER[a.severity] - INSIGHT_SEVERITY_ORDER[b.severity],
  );
}

/**
 * Where a closed model's VUs stopped sending while a response was slow: the seconds (inside the
 * load, the partial first and last ones left out) whose requests fell below `STALL_RATE_SHARE` of
 * what the active VUs send per second at the run's median pace (requests per VU, so a ramp of VUs
 * is no stall), with at least `STALL_MIN_EXPECTED` expected, and where a request ending in those
 * seconds or the one after took `STALL_LATENCY_FACTOR` times the median latency. Think time does
 * not hide it: VUs that sleep between requests still wait on each response, and a stall long
 * against the sleep slows their pace. A slower target whose pace falls evenly is no stall: its
 * throughput shows the change. Null when there is none, or fewer than 8 seconds of load.
 */
export function closedModelStall(seconds: readonly InsightSecond[]): {
  seconds: number;
  requests: number;
  expected: number;
  slowestMs: number;
  medianMs: number;
} | null {
  const first = seconds.findIndex((x) => x.requests > 0);
  let last = -1;
  seconds.forEach((x, i) => {
    if (x.requests > 0) last = i;
  });
  if (first < 0) return null;
  const core = seconds.slice(first + 1, last);
  if (core.length < 8) return null;
  const perVu = (x: InsightSecond) => (x.vus && x.vus > 0 ? x.requests / x.vus : x.requests);
  const pace = median(core.map(perVu));
  const latencies = core.flatMap((x) => (x.requests > 0 && x.p50Ms !== null ? [x.p50Ms] : []));
  if (pace <= 0 || !latencies.length) return null;
  const medianMs = median(latencies);
  // seconds whose requests collapsed, then each run of them with the slowest request that ended in
  // it or in the second after it (where the requests the stall held up end)
  const collapsed = core.map((x) => {
    const due = pace * (x.vus && x.vus > 0 ? x.vus : 1);
    return due >= STALL_MIN_EXPECTED && x.requests < STALL_RATE_SHARE * due ? due : null;
  });
  let stalled = 0;
  let requests = 0;
  let expected = 0;
  let slowestMs = 0;
  for (let i = 0; i < core.length; i++) {
    if (collapsed[i] === null) continue;
    let j = i;
    while (j + 1 < core.length && collapsed[j + 1] !== null) j++;
    const episode = core.slice(i, j + 1);
    const after = core[j + 1] ?? seconds[last]!;
    const slow = Math.max(...[...episode, after].map((y) => y.maxMs ?? y.p50Ms ?? 0));
    if (slow >= STALL_LATENCY_FACTOR * medianMs) {
      stalled += episode.length;
      requests += episode.reduce((a, y) => a + y.requests, 0);
      expected += collapsed.slice(i, j + 1).reduce((a: number, d) => a + (d ?? 0), 0);
      slowestMs = Math.max(slowestMs, slow);
    }
    i = j;
  }
  return stalled ? { seconds: stalled, requests, expected, slowestMs, medianMs } : null;
}
