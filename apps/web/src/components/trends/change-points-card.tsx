'use client';

import Link from 'next/link';
import { formatValue } from '~/components/compare/format-metric';
import { Badge } from '~/components/ui/badge';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import type { RouterOutputs } from '~/lib/trpc/types';

export type TrendChangePoint = RouterOutputs['trend']['changePoints']['changePoints'][number];

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)} %`;

/** How a change point is labelled on a chart: "+50 %" (the change of the level). */
export const changeLabel = (c: TrendChangePoint) => pct(c.change);

function Firing({ f }: { f: TrendChangePoint['before'] }) {
  return (
    <span>
      <Link className="text-brand-700 hover:underline" href={`/experiments/${f.experimentId}`}>
        {f.name}
      </Link>
      {f.commit ? (
        <span className="font-mono text-xs text-slate-500">
          {' '}
          {f.commit.slice(0, 12)}
          {f.branch ? ` on ${f.branch}` : ''}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The change points of the whole history (E-divisive means, docs/change-points.md): per metric
 * where the level moved, by how much with its interval, and the firings and commits on either side.
 */
export function ChangePointsCard({
  changePoints,
  firings,
  units,
}: {
  changePoints: TrendChangePoint[];
  firings: number;
  units: Record<string, { label: string; unit: string }>;
}) {
  return (
    <Card className="mt-6" data-testid="change-points">
      <CardHeader
        title="Change points"
        description={`Where the level of a metric moved in the whole history (${firings} experiments), found by E-divisive means with Student's t-test (p ≤ 0.001, at least 3 experiments on each side), as Apache Otava finds them: a slow drift shows here even when no single experiment differs from the baseline.`}
      />
      <CardBody className="p-0">
        {changePoints.length === 0 ? (
          <p className="px-5 py-4 text-sm text-slate-500" data-testid="no-change-points">
            No change points: every metric held its level across the history.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {changePoints.map((c) => {
              const m = units[c.metric] ?? { label: c.metric, unit: '' };
              return (
                <li
                  key={`${c.metric}.${c.after.experimentId}`}
                  className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-5 py-3"
                  data-testid="change-point"
                >
                  <Badge tone={c.kind === 'regression' ? 'red' : 'green'}>{c.kind}</Badge>
                  <span className="font-medium text-slate-900">
                    {m.label} {pct(c.change)}
                  </span>
                  <span className="text-slate-600">
                    {formatValue(c.meanBefore, m.unit)} → {formatValue(c.meanAfter, m.unit)}
                    {c.interval
                      ? ` (95 % interval ${pct(c.interval.lower)} … ${pct(c.interval.upper)})`
                      : ''}
                    , p = {c.pValue.toExponential(1)}
                  </span>
                  <span className="basis-full text-slate-600">
                    between <Firing f={c.before} /> and <Firing f={c.after} />; {c.firingsBefore}{' '}
                    experiments before, {c.firingsAfter} after
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
