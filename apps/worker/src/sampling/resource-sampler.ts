import { RESOURCE_FIELDS, type ResourceField } from '@poolbench/contracts';
import type { PinnedHost } from '@poolbench/contracts/net';
import { pinnedFetch } from '../targets/pinned-fetch';
import { cpuPercent, readProc, type ProcReading } from './proc-stats';
import { parsePrometheusText, sumOf, type PromSamples } from './prometheus-text';
import type { DbActivity, DbActivitySource } from './db-activity';

export interface SampleSource {
  index: number;
  /** managed instances: CPU and RSS from /proc */
  pid?: number;
  /** lab target /metrics, or a URL target's Prometheus endpoint */
  metricsUrl?: string;
  /** the run's pinned addresses: the scrape connects there, never to a fresh DNS answer */
  pins?: PinnedHost[];
}

/**
 * One sample: `unixSecond` is the second the sample covers (see the class comment), so it joins
 * the k6 second with the same number.
 */
export type ResourceRow = {
  unixSecond: number;
  /** -1 = sum over instances (with database-side numbers) */
  instance: number;
} & Record<ResourceField, number | null>;

/**
 * How the total row combines the instances. Every field is summed (gauges and per-second counts of
 * the instances add up) except the mean waits, where the worst instance speaks for the run, and
 * the database's own numbers, which are read once from the database rather than per instance.
 */
const WORST_INSTANCE: ReadonlySet<ResourceField> = new Set(['poolWaitMs', 'upstreamWaitMs']);
const DATABASE_SIDE: ReadonlySet<ResourceField> = new Set([
  'dbActive',
  'dbIdle',
  'dbIdleInTx',
  'dbTotal',
  'dbNewConns',
]);

interface PrevState {
  proc?: ProcReading;
  promCpu?: { v: number; atMs: number };
  waitSum?: number;
  waitCount?: number;
  timeouts?: number;
  created?: number;
  tooMany?: number;
  upWaitSum?: number;
  upWaitCount?: number;
  upCreated?: number;
}

const delta = (cur: number | null, prev: number | undefined) =>
  cur === null || prev === undefined ? null : Math.max(0, cur - prev);

/**
 * The mean wait over the second, in ms, from a histogram's `_sum` and `_count` and their previous
 * readings: 0 when nothing waited, null before a second reading. Also the readings, for the next.
 */
function meanWaitMs(prom: PromSamples, histogram: string, prevSum?: number, prevCount?: number) {
  const sum = sumOf(prom, `${histogram}_sum`);
  const count = sumOf(prom, `${histogram}_count`);
  const dSum = delta(sum, prevSum);
  const dCount = delta(count, prevCount);
  const ms = dSum !== null && dCount ? (dSum / dCount) * 1000 : dCount === 0 ? 0 : null;
  return { ms, sum: sum ?? undefined, count: count ?? undefined };
}

// A last reading at stop over a shorter interval than this is too coarse for CPU (/proc counts in 10 ms ticks).
const MIN_FINAL_INTERVAL_MS = 250;

/**
 * Samples the target once per wall-clock second, just after each unix second ends, and labels
 * each row with the second it covers, like the k6 output's buckets (a request belongs to the
 * second it ended in): CPU %, mean pool wait and the per-interval counters (acquire timeouts,
 * connections created, new DB sessions, too-many-clients) are measured between two readings,
 * and the gauges (RSS, pool and DB connections) are the state at the reading that closes it.
 * A reading at time t closes the interval [previous reading, t); the row's second is the unix
 * second holding that interval's midpoint: the tick just after second S ends is labelled S, so
 * resource row N and load row N describe the same second. The first reading only sets the
 * baseline (it closes no interval), and stop() takes a last reading for the partial last second.
 */
export class ResourceSampler {
  private prev = new Map<number, PrevState>();
  private prevSessions: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private lastReadingMs: number | null = null;
  private lastLabel = -Infinity;
  private inflight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sources: SampleSource[],
    private readonly db: DbActivitySource | null,
    private readonly onRows: (rows: ResourceRow[]) => void,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  start(): void {
    const schedule = () => {
      if (this.stopped) return;
      const wait = 1000 - (Date.now() % 1000) + 5;
      this.timer = setTimeout(() => {
        this.run().finally(schedule);
      }, wait);
    };
    // The first reading right away sets the counters' baseline.
    this.run().finally(schedule);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inflight;
    if (this.lastReadingMs !== null && Date.now() - this.lastReadingMs >= MIN_FINAL_INTERVAL_MS)
      await this.run();
    await this.db?.close();
  }

  private run(): Promise<unknown> {
    this.inflight = this.inflight.then(() => this.tick()).catch(this.onError);
    return this.inflight;
  }

  /** One reading; returns the rows it closed (none for the baseline reading). */
  async tick(): Promise<ResourceRow[]> {
    const now = Date.now();
    const label =
      this.lastReadingMs === null ? null : Math.floor((this.lastReadingMs + now) / 2000);
    this.lastReadingMs = now;
    const unixSecond = label ?? Math.floor(now / 1000);
    const [perInstance, activity] = await Promise.all([
      Promise.all(this.sources.map((s) => this.sampleOne(s, unixSecond))),
      this.db?.read() ?? null,
    ]);
    const rows = [...perInstance, this.total(unixSecond, perInstance, activity)];
    // The baseline closes no interval; a late tick whose midpoint falls in an already labelled
    // second would duplicate that row's key.
    if (label === null || label <= this.lastLabel) return [];
    this.lastLabel = label;
    this.onRows(rows);
    return rows;
  }

  private async sampleOne(src: SampleSource, unixSecond: number): Promise<ResourceRow> {
    const prev = this.prev.get(src.index) ?? {};
    const next: PrevState = {};
    const row: ResourceRow = emptyRow(unixSecond, src.index);
    if (src.pid !== undefined) {
      const p = await readProc(src.pid);
      if (p) {
        row.rssBytes = p.rssBytes;
        if (prev.proc) row.cpuPercent = cpuPercent(prev.proc, p);
        next.proc = p;
      }
    }
    if (src.metricsUrl) {
      const prom = await scrape(src.metricsUrl, src.pins ?? []);
      if (prom) {
        if (src.pid === undefined) {
          const cpu = sumOf(prom, 'process_cpu_seconds_total');
          const rss = sumOf(prom, 'process_resident_memory_bytes');
          row.rssBytes = rss;
          if (cpu !== null) {
            const now = Date.now();
            if (prev.promCpu)
              row.cpuPercent = Math.max(
                0,
                ((cpu - prev.promCpu.v) / ((now - prev.promCpu.atMs) / 1000)) * 100,
              );
            next.promCpu = { v: cpu, atMs: now };
          }
        }
        row.poolTotal = sumOf(prom, 'labtarget_pool_total_conns');
        row.poolIdle = sumOf(prom, 'labtarget_pool_idle_conns');
        row.poolInUse = sumOf(prom, 'labtarget_pool_acquired_conns');
        row.poolConstructing = sumOf(prom, 'labtarget_pool_constructing_conns');
        row.poolMax = sumOf(prom, 'labtarget_pool_max_conns');
        row.poolWaitCount = sumOf(prom, 'labtarget_pool_waiting_requests');
        const wait = meanWaitMs(
          prom,
          'labtarget_pool_acquire_wait_seconds',
          prev.waitSum,
          prev.waitCount,
        );
        row.poolWaitMs = wait.ms;
        const timeouts = sumOf(prom, 'labtarget_pool_acquire_timeout_total');
        const created = sumOf(prom, 'labtarget_pool_conns_created_total');
        const tooMany = sumOf(prom, 'labtarget_db_too_many_clients_total');
        row.poolAcquireTimeouts = delta(timeouts, prev.timeouts);
        row.poolConnsCreated = delta(created, prev.created);
        row.dbTooManyClients = delta(tooMany, prev.tooMany);
        Object.assign(next, {
          waitSum: wait.sum,
          waitCount: wait.count,
          timeouts: timeouts ?? undefined,
          created: created ?? undefined,
          tooMany: tooMany ?? undefined,
        });
        Object.assign(next, upstreamPool(prom, prev, row));
      }
    }
    this.prev.set(src.index, { ...prev, ...next });
    return row;
  }

  private total(unixSecond: number, rows: ResourceRow[], activity: DbActivity | null): ResourceRow {
    const t = emptyRow(unixSecond, -1);
    for (const k of RESOURCE_FIELDS) {
      if (DATABASE_SIDE.has(k)) continue;
      const vals = rows.map((r) => r[k]).filter((v): v is number => v !== null);
      if (vals.length === 0) continue;
      t[k] = WORST_INSTANCE.has(k) ? Math.max(...vals) : vals.reduce((a, b) => a + b, 0);
    }
    if (activity) {
      t.dbActive = activity.active;
      t.dbIdle = activity.idle;
      t.dbIdleInTx = activity.idleInTx;
      t.dbTotal = activity.total;
      if (activity.sessionsTotal !== null) {
        if (this.prevSessions !== null)
          t.dbNewConns = Math.max(0, activity.sessionsTotal - this.prevSessions);
        this.prevSessions = activity.sessionsTotal;
      }
    }
    return t;
  }
}

/**
 * The target's HTTP client pool towards its upstream (the lab target's labtarget_upstream_*
 * metrics): gauges as read, the wait for a connection as the mean over the second (like the
 * database pool's), connections opened as a per-second delta. Targets without it stay null.
 */
function upstreamPool(prom: PromSamples, prev: PrevState, row: ResourceRow): PrevState {
  row.upstreamOpen = sumOf(prom, 'labtarget_upstream_open_conns');
  row.upstreamInUse = sumOf(prom, 'labtarget_upstream_inuse_conns');
  row.upstreamMax = sumOf(prom, 'labtarget_upstream_max_idle_conns');
  const wait = meanWaitMs(
    prom,
    'labtarget_upstream_conn_wait_seconds',
    prev.upWaitSum,
    prev.upWaitCount,
  );
  row.upstreamWaitMs = wait.ms;
  const created = sumOf(prom, 'labtarget_upstream_conns_created_total');
  row.upstreamConnsCreated = delta(created, prev.upCreated);
  return {
    upWaitSum: wait.sum,
    upWaitCount: wait.count,
    upCreated: created ?? undefined,
  };
}

function emptyRow(unixSecond: number, instance: number): ResourceRow {
  const row = { unixSecond, instance } as ResourceRow;
  for (const k of RESOURCE_FIELDS) row[k] = null;
  return row;
}

// A redirect (3xx) counts as a failed scrape: the sample stays empty, nothing follows it.
async function scrape(url: string, pins: PinnedHost[]): Promise<PromSamples | null> {
  try {
    const res = await pinnedFetch(url, pins, { timeoutMs: 800, maxBytes: 16 * 1024 * 1024 });
    if (res.status < 200 || res.status >= 300) return null;
    return parsePrometheusText(res.text);
  } catch {
    return null;
  }
}
