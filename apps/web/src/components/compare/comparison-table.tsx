'use client';

import { ArrowDown, ArrowUp, Info } from 'lucide-react';
import type { ComparisonView as Comparison } from '~/lib/trpc/types';
import { cn } from '~/lib/cn';
import {
  GROUP_COLORS,
  VERDICT_LABEL,
  VERDICT_STYLE,
  formatChange,
  formatCoverage,
  formatP,
  formatValue,
} from './format-metric';
import { RepeatsHint, RepeatsHintPending } from './repeats-hint';
import { extendOffers, type RepeatsNeededView } from './repeats-offers';
import { ScrollX } from '~/components/ui/scroll-x';

const th = 'bg-slate-50 px-4 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-500';

/**
 * Below sm (a phone) the table stacks as the shared page's does: no header row, each metric a
 * block, each cell a line of its own named by its `data-label` on the left, its content on the
 * right, so a metric's values and verdicts are on the screen without scrolling sideways.
 */
const stackTable = 'max-sm:block';
const stackRow = 'max-sm:block max-sm:py-1.5';
const stackCell =
  'max-sm:flex max-sm:items-baseline max-sm:justify-between max-sm:gap-3 max-sm:whitespace-normal max-sm:border-l-0 max-sm:px-4 max-sm:py-1 max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-[11px] max-sm:before:uppercase max-sm:before:tracking-wide max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]';

/**
 * One row per metric: the baseline's median with the range of its repeats, then for each
 * candidate its median, Δ% with its interval and the coverage that interval achieves (95 % when
 * there are enough runs, less with few), the BH-adjusted p, n and the verdict, coloured
 * by what is good for that metric (lower latency, higher throughput). Under each Inconclusive
 * verdict, once `repeats` has arrived, the repeats per side that would likely resolve it and, for
 * members (`canExtend`), "Add repeats" for the finished experiments of the two cells.
 */
export function ComparisonTable({
  c,
  repeats,
  canExtend = false,
}: {
  c: Comparison;
  repeats?: { view: RepeatsNeededView | undefined; pending: boolean };
  canExtend?: boolean;
}) {
  const b = c.baselineIndex;
  // an answer computed for another baseline (never expected) is not shown under this one
  const view = repeats?.view && repeats.view.baselineIndex === b ? repeats.view : undefined;
  const hint = (groupIndex: number, metric: string) => {
    const g = c.groups[groupIndex]!;
    const estimate = view?.cells.find((x) => x.groupKey === g.key && x.metric === metric);
    if (!estimate) return repeats?.pending ? <RepeatsHintPending /> : null;
    const offers =
      canExtend && estimate.repeatsPerSide !== null
        ? extendOffers(c.groups[b]!, g, estimate.repeatsPerSide, view!.experiments)
        : [];
    return <RepeatsHint perSide={estimate.repeatsPerSide} offers={offers} />;
  };
  const others = c.groups.map((g, i) => ({ g, i })).filter(({ i }) => i !== b);
  return (
    <ScrollX label="Comparison" data-testid="comparison-table">
      <table className={cn('min-w-full text-sm tabular-nums', stackTable)}>
        <colgroup span={2} />
        {others.map(({ g }) => (
          <colgroup key={g.key} span={2} />
        ))}
        <thead className="max-sm:hidden">
          <tr className="border-b border-slate-200">
            <th scope="col" className={cn(th, 'text-left')}>
              Metric
            </th>
            <th scope="col" className={cn(th, 'border-l border-slate-200 text-right')}>
              <span className="inline-flex items-center gap-1.5">
                <i
                  className="inline-block size-2.5 rounded-sm"
                  style={{ background: GROUP_COLORS[b % GROUP_COLORS.length] }}
                />
                {c.groups[b]!.label}
              </span>
              <div className="mt-0.5 font-normal normal-case tracking-normal text-slate-500">
                baseline · median [min–max]
              </div>
            </th>
            {others.map(({ g, i }) => (
              <th
                key={g.key}
                scope="colgroup"
                colSpan={2}
                className={cn(th, 'border-l border-slate-200 text-right')}
              >
                <span className="inline-flex items-center gap-1.5">
                  <i
                    className="inline-block size-2.5 rounded-sm"
                    style={{ background: GROUP_COLORS[i % GROUP_COLORS.length] }}
                  />
                  {g.label}
                </span>
                <div className="mt-0.5 font-normal normal-case tracking-normal text-slate-500">
                  median · Δ% [interval] coverage · p (Holm across the primary metrics,
                  Benjamini–Hochberg across the rest) · n
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={cn('divide-y divide-slate-100', stackTable)}>
          {c.rows.map((r) => {
            const base = r.cells[b]!;
            return (
              <tr
                key={r.key}
                className={cn('hover:bg-slate-50/60', stackRow)}
                data-testid={`metric-${r.key}`}
              >
                <th
                  scope="row"
                  className="whitespace-nowrap px-4 py-2.5 text-left font-medium text-slate-800 max-sm:block max-sm:py-1"
                >
                  <span className="inline-flex items-center gap-1.5">
                    {r.label}
                    {r.direction === 'higher-is-better' ? (
                      <ArrowUp className="size-3 text-slate-400" aria-label="higher is better" />
                    ) : (
                      <ArrowDown className="size-3 text-slate-400" aria-label="lower is better" />
                    )}
                  </span>
                  {!r.tested ? (
                    <div className="text-xs font-normal text-slate-500">shown, never tested</div>
                  ) : r.comparisons.some((x) => x?.primary) ? (
                    <div
                      className="text-xs font-normal text-slate-500"
                      title="a primary metric: its p is adjusted with Holm among the primary metrics only, and a worse verdict makes a regression"
                    >
                      primary
                    </div>
                  ) : (
                    <div
                      className="text-xs font-normal text-slate-500"
                      title="a secondary metric: its p is adjusted with Benjamini–Hochberg among the other secondary metrics; its verdict is reported and makes neither a regression nor a suspicion"
                    >
                      secondary
                    </div>
                  )}
                </th>
                <td
                  data-label={`${c.groups[b]!.label} (baseline)`}
                  className={cn(
                    'whitespace-nowrap border-l border-slate-100 px-4 py-2.5 text-right',
                    stackCell,
                  )}
                >
                  <div>
                    <div className="font-medium text-slate-900">
                      {formatValue(base.median, r.unit)}
                    </div>
                    <div className="text-xs text-slate-500">
                      {base.n === 0
                        ? 'no data'
                        : base.n > 1
                          ? `${formatValue(base.min, r.unit)} – ${formatValue(base.max, r.unit)} · n=${base.n}`
                          : 'single run'}
                    </div>
                  </div>
                </td>
                {others.map(({ g, i }) => {
                  const cmp = r.comparisons[i];
                  const ch = formatChange(cmp?.changePercent);
                  const v = cmp?.verdict ?? null;
                  return [
                    <td
                      key={`${g.key}-v`}
                      data-label={g.label}
                      data-testid="candidate-value"
                      className={cn(
                        'whitespace-nowrap border-l border-slate-100 px-4 py-2.5 text-right',
                        stackCell,
                      )}
                    >
                      <div>
                        <div className="font-medium text-slate-900">
                          {formatValue(cmp?.median, r.unit)}
                        </div>
                        <div className="text-xs text-slate-500">
                          {r.tested ? (
                            <>
                              <span
                                className={cn(
                                  'font-medium',
                                  v
                                    ? VERDICT_STYLE[v].tw
                                        .split(' ')
                                        .find((x) => x.startsWith('text-'))
                                    : '',
                                )}
                              >
                                {ch.estimate}
                              </span>{' '}
                              {ch.interval}
                              {ch.interval ? (
                                <span data-testid="interval-coverage">
                                  {' '}
                                  {formatCoverage(cmp?.achievedConfidence)}
                                </span>
                              ) : null}{' '}
                              · p {formatP(cmp?.pValue)} · n={cmp?.n ?? 0}
                            </>
                          ) : (
                            `n=${cmp?.n ?? 0}`
                          )}
                        </div>
                      </div>
                    </td>,
                    <td
                      key={`${g.key}-verdict`}
                      data-label={others.length > 1 ? `${g.label} verdict` : 'verdict'}
                      className={cn('whitespace-nowrap px-3 py-2.5 text-right', stackCell)}
                    >
                      <div>
                        {r.tested && v ? (
                          <>
                            <span
                              title={cmp?.reason ?? undefined}
                              data-testid="verdict"
                              className={cn(
                                'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
                                VERDICT_STYLE[v].tw,
                              )}
                            >
                              {VERDICT_LABEL[v]}
                              {cmp?.lowRequests ? (
                                <Info
                                  className="size-3"
                                  aria-label="fewer than 1,000 requests in a run"
                                />
                              ) : null}
                            </span>
                            {cmp?.noiseFloor ? (
                              <div
                                className="mt-0.5 text-xs text-violet-700"
                                data-testid="noise-floor"
                                title="The practical floor of this verdict is the noise floor an A/A calibration measured for this target and scenario (larger than the default)"
                              >
                                floor ±{formatNoiseFloor(cmp.noiseFloor, r.unit)} (A/A)
                              </div>
                            ) : null}
                            {cmp?.noiseWarning ? (
                              <div
                                className="mt-0.5 max-w-56 text-xs text-amber-700"
                                data-testid="noise-warning"
                              >
                                {cmp.noiseWarning}
                              </div>
                            ) : null}
                            {v === 'inconclusive' ? hint(i, r.key) : null}
                          </>
                        ) : (
                          <span className="text-xs text-slate-500">
                            {r.tested ? '—' : 'not tested'}
                          </span>
                        )}
                      </div>
                    </td>,
                  ];
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollX>
  );
}

/** A calibrated floor as the table shows it: percent, or the metric's unit for linear metrics. */
export function formatNoiseFloor(f: { unit: 'percent' | 'absolute'; value: number }, unit: string) {
  if (f.unit === 'percent') return `${f.value.toFixed(f.value < 10 ? 1 : 0)} %`;
  return unit === '%' ? `${f.value.toPrecision(2)} points` : formatValue(f.value, unit);
}
