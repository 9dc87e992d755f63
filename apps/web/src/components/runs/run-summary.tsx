import { CheckCircle2, XCircle } from 'lucide-react';
import type { RunSummary } from '@poolbench/stats';
import { formatBytes, formatDuration, formatMs, formatNumber, formatPercent } from '~/lib/format';
import { Stat } from '~/components/ui/card';

/** Run.summary as the server parsed it (packages/db RunSummarySchema). */
export type RunSummaryShape = RunSummary;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Summary cards; every field is optional because older workers may write less. */
export function RunSummary({ summary }: { summary: RunSummaryShape }) {
  const s = summary;
  const r = s.resources ?? {};
  const upstreamOnly =
    num(r.poolWaitMsMean) === null &&
    num(r.upstreamWaitMsMean) !== null &&
    (num(r.upstreamInUsePeak) ?? 0) > 0;
  const errorRate =
    num(s.errorRate) ??
    (num(s.requests) && num(s.failed) !== null
      ? (s.failed as number) / (s.requests as number)
      : null);
  return (
    <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="run-summary">
      <Stat
        label="Requests"
        value={formatNumber(num(s.requests))}
        sub={`${formatNumber(num(s.failed))} failed${num(s.checkFailed) ? `, ${formatNumber(num(s.checkFailed))} by a check` : ''}`}
      />
      <Stat
        label="Throughput"
        value={`${formatNumber(num(s.rps), 1)}/s`}
        sub={`over ${formatDuration(num(s.durationMs))}`}
      />
      <Stat
        label="Error rate"
        value={formatPercent(errorRate, 2)}
        tone={
          errorRate !== null && errorRate > 0.01 ? 'bad' : errorRate !== null ? 'good' : undefined
        }
      />
      <Stat
        label="p50 latency"
        value={formatMs(num(s.latency?.p50))}
        sub={`mean ${formatMs(num(s.latency?.mean))}`}
      />
      <Stat
        label="p95 / p99"
        value={formatMs(num(s.latency?.p95))}
        sub={`p99 ${formatMs(num(s.latency?.p99))}`}
      />
      <Stat
        label="Max latency"
        value={formatMs(num(s.latency?.max))}
        sub={`max VUs ${formatNumber(num(s.vusMax))}${typeof s.vusAllocatedMax === 'number' ? ` · allocated ${formatNumber(s.vusAllocatedMax)}` : ''}`}
      />
      <Stat
        label="CPU (target)"
        value={`${formatNumber(num(r.cpuMeanPercent), 0)} %`}
        sub={`peak ${formatNumber(num(r.cpuPeakPercent), 0)} %`}
      />
      <Stat
        label="Memory (target)"
        value={formatBytes(num(r.rssPeakBytes))}
        sub={`mean ${formatBytes(num(r.rssMeanBytes))}`}
      />
      {upstreamOnly ? (
        // no database pool wait (seed 000's POST /upload): the pool that matters is the upstream HTTP pool
        <Stat
          label="Upstream pool wait"
          value={formatMs(num(r.upstreamWaitMsMean))}
          sub={`mean per second · peak ${formatNumber(num(r.upstreamInUsePeak))} in use`}
        />
      ) : (
        <Stat label="Pool wait" value={formatMs(num(r.poolWaitMsMean))} sub="mean per second" />
      )}
      <Stat label="DB connections" value={formatNumber(num(r.dbConnectionsPeak))} sub="peak" />
      <Stat
        label="Connect p95"
        value={formatMs(num(s.connecting?.p95))}
        sub={`max ${formatMs(num(s.connecting?.max))}`}
      />
      <Stat
        label="Data"
        value={formatBytes(num(s.bytesReceived))}
        sub={`sent ${formatBytes(num(s.bytesSent))}`}
      />
    </div>
  );
}

interface ThresholdRow {
  metric: string;
  expr: string;
  ok: boolean | null;
  actual?: number | null;
}

/** Accepts the list or map shapes a worker may store and shows each threshold as pass/fail. */
export function normalizeThresholds(raw: unknown): ThresholdRow[] {
  if (!raw) return [];
  if (Array.isArray(raw)) {
    return raw.map((t: Record<string, unknown>) => ({
      metric: String(t.metric ?? '?'),
      expr: String(t.expr ?? t.threshold ?? ''),
      ok:
        typeof t.ok === 'boolean'
          ? t.ok
          : typeof t.passed === 'boolean'
            ? t.passed
            : typeof t.pass === 'boolean'
              ? t.pass
              : null,
      actual: num(t.observed ?? t.actual ?? t.value),
    }));
  }
  if (typeof raw === 'object') {
    const out: ThresholdRow[] = [];
    for (const [metric, v] of Object.entries(raw as Record<string, unknown>)) {
      if (v && typeof v === 'object')
        for (const [expr, ok] of Object.entries(v as Record<string, unknown>))
          out.push({
            metric,
            expr,
            ok:
              typeof ok === 'boolean'
                ? ok
                : typeof (ok as { ok?: unknown })?.ok === 'boolean'
                  ? (ok as { ok: boolean }).ok
                  : null,
          });
    }
    return out;
  }
  return [];
}

export function ThresholdList({ raw }: { raw: unknown }) {
  const rows = normalizeThresholds(raw);
  if (rows.length === 0)
    return <p className="text-sm text-slate-500">No thresholds were set for this scenario.</p>;
  return (
    <ul className="divide-y divide-slate-100" data-testid="thresholds">
      {rows.map((t, i) => (
        <li key={i} className="flex items-center justify-between gap-3 py-2 text-sm">
          <span className="font-mono text-xs text-slate-700">
            {t.metric} {t.expr}
          </span>
          <span className="flex items-center gap-2">
            {t.actual !== null && t.actual !== undefined ? (
              <span className="text-xs tabular-nums text-slate-500">
                {t.metric.startsWith('insight:')
                  ? t.actual > 0
                    ? 'found'
                    : 'not found'
                  : formatNumber(t.actual, 3)}
              </span>
            ) : null}
            {t.ok === true ? (
              <span className="inline-flex items-center gap-1 text-xs font-medium text-emerald-700">
                <CheckCircle2 className="size-4" /> pass
              </span>
            ) : t.ok === false ? (
              <span className="inline-flex items-center gap-1 text-xs font-medium text-red-700">
                <XCircle className="size-4" /> fail
              </span>
            ) : (
              <span className="text-xs text-slate-500">not evaluated</span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
