import type { StoredRunSummary } from '@poolbench/db';
import { CheckCircle2, XCircle } from 'lucide-react';
import { cn } from '~/lib/cn';
import { Card, CardHeader } from '~/components/ui/card';
import { formatValue } from '~/components/compare/format-metric';
import { CardTable, numberCell } from './card-table';

type Checks = NonNullable<StoredRunSummary['checks']>;
type Custom = NonNullable<StoredRunSummary['custom']>;
type Trend = NonNullable<Custom[string]['trend']>;

const n = (v: number) => v.toLocaleString('en-US');
const rate = (passes: number, fails: number) =>
  passes + fails > 0 ? formatValue((100 * passes) / (passes + fails), '%') : '–';

/** k6's group path ('::login::token') as a heading; the root group has none. */
const groupLabel = (group: string) => group.split('::').filter(Boolean).join(' › ');

/**
 * The checks grouped as k6's end-of-test summary lists them: by group, in the order first seen,
 * then the groups that had a duration but no check.
 */
function byGroup(items: Checks['items'], durations: Map<string, Trend>) {
  const groups = new Map<string, Checks['items']>();
  for (const c of items) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
  for (const g of durations.keys()) if (!groups.has(g)) groups.set(g, []);
  return [...groups];
}

/** Each group's duration (k6's group_duration trend of that group), as the k6 output names it. */
function groupDurations(custom: Custom | undefined): Map<string, Trend> {
  const out = new Map<string, Trend>();
  for (const [name, v] of Object.entries(custom ?? {})) {
    const m = /^group_duration\{group:(.*)\}$/.exec(name);
    if (m && v.trend) out.set(m[1]!, v.trend);
  }
  return out;
}

const ms = (v: number) => formatValue(v, 'ms');

/**
 * A run's k6 checks over its load, as k6's summary shows them: name, ✓ passes, ✗ fails, rate;
 * each group with its duration (p50 / p95 / p99 of k6's group_duration) beside its checks.
 */
export function ChecksCard({ summary }: { summary: Pick<StoredRunSummary, 'checks' | 'custom'> }) {
  const durations = groupDurations(summary.custom);
  const checks = summary.checks ?? (durations.size ? { items: [], passes: 0, fails: 0 } : null);
  if (!checks || (checks.items.length === 0 && !checks.overflow && durations.size === 0))
    return null;
  const overflow = checks.overflow;
  const any = checks.passes + checks.fails > 0;
  return (
    <Card className="mb-6" data-testid="checks">
      <CardHeader
        title={any ? 'Checks' : 'Groups'}
        description={`${any ? `The script's check() results over the load (setup() and teardown() left out): ${rate(checks.passes, checks.fails)} of ${n(checks.passes + checks.fails)} passed, what a checks threshold reads.` : 'The script has groups and no check.'}${overflow ? ` ${n(overflow.passes + overflow.fails)} results of further check names are counted in the total only (at most 64 names are kept).` : ''}${durations.size ? " Beside each group, its duration over the load (k6's group_duration: one sample each time an iteration ran the group; at most 16 groups are kept)." : ''}`}
      />
      <CardTable first="Check" columns={['✓ Passes', '✗ Fails', 'Rate']} bodies>
        {byGroup(checks.items, durations).map(([group, items]) => (
          <tbody key={group} className="divide-y divide-slate-100">
            {group ? (
              <tr data-testid="check-group" data-group={group}>
                <th
                  scope="rowgroup"
                  colSpan={4}
                  className="bg-slate-50/60 px-4 py-1.5 text-left text-xs font-semibold text-slate-600"
                >
                  Group {groupLabel(group)}
                  {durations.has(group) ? <GroupDuration trend={durations.get(group)!} /> : null}
                </th>
              </tr>
            ) : null}
            {items.map((c) => (
              <tr key={`${c.group}\u0000${c.name}`} data-testid="check">
                <th
                  scope="row"
                  className={cn(
                    'px-4 py-2 text-left font-medium text-slate-800',
                    group ? 'pl-8' : undefined,
                  )}
                >
                  <span className="inline-flex items-center gap-1.5">
                    {c.fails === 0 ? (
                      <CheckCircle2 className="size-4 text-emerald-600" aria-label="all passed" />
                    ) : (
                      <XCircle className="size-4 text-red-600" aria-label="some failed" />
                    )}
                    {c.name}
                  </span>
                </th>
                <td className={numberCell}>{n(c.passes)}</td>
                <td className={cn(numberCell, c.fails > 0 ? 'text-red-700' : undefined)}>
                  {n(c.fails)}
                </td>
                <td className={numberCell}>{rate(c.passes, c.fails)}</td>
              </tr>
            ))}
          </tbody>
        ))}
        {any || overflow ? (
          <tfoot>
            <tr className="border-t border-slate-200 font-semibold text-slate-800">
              <th scope="row" className="px-4 py-2 text-left">
                All checks{overflow ? ' (with further names)' : ''}
              </th>
              <td className={numberCell}>{n(checks.passes)}</td>
              <td className={cn(numberCell, checks.fails > 0 ? 'text-red-700' : undefined)}>
                {n(checks.fails)}
              </td>
              <td className={numberCell}>{rate(checks.passes, checks.fails)}</td>
            </tr>
          </tfoot>
        ) : null}
      </CardTable>
    </Card>
  );
}

function GroupDuration({ trend }: { trend: Trend }) {
  return (
    <span className="ml-2 font-normal text-slate-500" data-testid="group-duration">
      · duration p50 {ms(trend.p50)} · p95 {ms(trend.p95)} · p99 {ms(trend.p99)} · {n(trend.count)}{' '}
      {trend.count === 1 ? 'time' : 'times'}
    </span>
  );
}
