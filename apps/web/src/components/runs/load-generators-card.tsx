'use client';

import { formatBytes, formatDuration } from '~/lib/format';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';

export interface GeneratorRow {
  index: number;
  workerId: string | null;
  status: string;
  requests: number;
  loadMs: number | null;
  startSkewMs: number | null;
  cpuAvgPercent: number | null;
  cpuMaxPercent: number | null;
  rssMaxBytes: number | null;
  lateSamples: number | null;
  outsideCpuPercent: number | null;
  errorMessage: string | null;
}

/** Above this a generator's own k6 may be what limits the run (as Grafana Cloud k6 warns per load zone). */
export const GENERATOR_CPU_WARN_PERCENT = 80;

/** "waiting for 3 load generators, 2 joined" while a distributed run gathers its workers. */
export function waitingLine(count: number, segments: GeneratorRow[]): string {
  const joined = segments.filter((s) => s.workerId !== null && s.status !== 'canceled').length;
  return `Waiting for ${count} load generators, ${joined} joined…`;
}

const pct = (v: number | null) => (v === null ? '—' : `${v.toFixed(0)} %`);

/**
 * Each load generator of a distributed run: its worker, req/s, start skew, its own CPU, the CPU
 * used beside it, its late samples and memory.
 */
export function LoadGeneratorsCard({
  count,
  segments,
}: {
  count: number;
  segments: GeneratorRow[];
}) {
  const hot = segments.filter((s) => (s.cpuMaxPercent ?? 0) > GENERATOR_CPU_WARN_PERCENT);
  return (
    <Card className="mb-6">
      <CardHeader
        title={`Load generators (${count})`}
        description="One k6 execution segment per worker; their seconds are merged exactly into the charts above."
      />
      <CardBody>
        {hot.length > 0 ? (
          <Alert tone="warning" className="mb-3" title="A load generator was busy">
            <span data-testid="generator-cpu-warning">
              Generator {hot.map((s) => s.index).join(', ')} used more than{' '}
              {GENERATOR_CPU_WARN_PERCENT} % of a CPU core: latency and throughput may be limited by
              the generator, not the target. Add generators or give them more CPU.
            </span>
          </Alert>
        ) : null}
        <table className="w-full text-left text-sm" data-testid="load-generators">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1 pr-3">#</th>
              <th className="py-1 pr-3">Worker</th>
              <th className="py-1 pr-3">Status</th>
              <th className="py-1 pr-3 text-right">req/s</th>
              <th className="py-1 pr-3 text-right">Start skew</th>
              <th className="py-1 pr-3 text-right">CPU avg / max</th>
              <th
                className="py-1 pr-3 text-right"
                title="CPU used beside the generator while it ran"
              >
                Other CPU
              </th>
              <th
                className="py-1 pr-3 text-right"
                title="samples that reached k6's output after their second was written"
              >
                Late samples
              </th>
              <th className="py-1 text-right">Memory</th>
            </tr>
          </thead>
          <tbody>
            {segments.map((s) => (
              <tr
                key={s.index}
                className="border-t border-slate-100"
                title={s.errorMessage ?? undefined}
              >
                <td className="py-1 pr-3 tabular-nums">{s.index}</td>
                <td className="py-1 pr-3 font-mono text-xs">{s.workerId ?? '—'}</td>
                <td className="py-1 pr-3">{s.status}</td>
                <td className="py-1 pr-3 text-right tabular-nums">
                  {s.loadMs
                    ? (s.requests / (s.loadMs / 1000)).toFixed(1)
                    : s.requests > 0
                      ? `${s.requests} req`
                      : '—'}
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">
                  {s.startSkewMs === null ? '—' : formatDuration(s.startSkewMs)}
                </td>
                <td
                  className={`py-1 pr-3 text-right tabular-nums ${(s.cpuMaxPercent ?? 0) > GENERATOR_CPU_WARN_PERCENT ? 'font-semibold text-amber-700' : ''}`}
                >
                  {pct(s.cpuAvgPercent)} / {pct(s.cpuMaxPercent)}
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">{pct(s.outsideCpuPercent)}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{s.lateSamples ?? '—'}</td>
                <td className="py-1 text-right tabular-nums">
                  {s.rssMaxBytes === null ? '—' : formatBytes(s.rssMaxBytes)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardBody>
    </Card>
  );
}
