'use client';

import { useQuery } from '@tanstack/react-query';
import { GitCompareArrows } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '~/lib/trpc/react';
import { plural } from '~/lib/plural';
import { formatDateTime } from '~/lib/format';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { EmptyState, LoadingBlock } from '~/components/ui/feedback';
import { itemKey, type CompareItem } from '~/lib/compare/selection';
import { comparePath } from '@poolbench/contracts/links';

/** Pick 2–6 experiment cells (all repeats of a config) or single runs. */
export function ComparePicker({ initial }: { initial: CompareItem[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const q = useQuery(trpc.compare.candidates.queryOptions({}));
  const [picked, setPicked] = useState<CompareItem[]>(initial);
  const has = (i: CompareItem) => picked.some((p) => itemKey(p) === itemKey(i));
  const toggle = (i: CompareItem) =>
    setPicked((p) =>
      has(i) ? p.filter((x) => itemKey(x) !== itemKey(i)) : p.length >= 6 ? p : [...p, i],
    );
  if (q.isPending) return <LoadingBlock rows={4} />;
  if (!q.data?.length)
    return (
      <EmptyState icon={GitCompareArrows} title="Nothing to compare yet">
        Run an experiment with two or more pool configs; its finished runs appear here.
      </EmptyState>
    );
  return (
    <div className="space-y-4">
      <div className="sticky top-0 z-10 flex items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white/90 px-4 py-3 shadow-sm backdrop-blur">
        <p className="text-sm text-slate-600">
          <span className="font-semibold text-slate-900">{picked.length}</span> of 2–6 picked. Cells
          compare all repeats of a pool config; the first pick is the baseline unless a saved one is
          among them.
        </p>
        <Button disabled={picked.length < 2} onClick={() => router.push(comparePath(picked))}>
          <GitCompareArrows className="size-4" /> Compare
        </Button>
      </div>
      {q.data.map((e) => (
        <Card key={e.id}>
          <CardHeader
            title={e.name}
            description={`${e.target.name} · ${formatDateTime(e.createdAt)}`}
          />
          <CardBody className="space-y-3">
            <div className="flex flex-wrap gap-2">
              {e.cells.map((c) => {
                const item: CompareItem = {
                  kind: 'cell',
                  experimentId: c.experimentId,
                  poolConfigId: c.poolConfigId,
                  scenarioId: c.scenarioId,
                };
                return (
                  <label
                    key={itemKey(item)}
                    className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm hover:border-brand-300 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50/50"
                  >
                    <input
                      type="checkbox"
                      checked={has(item)}
                      onChange={() => toggle(item)}
                      aria-label={`${c.poolConfigName} × ${c.scenarioName}`}
                    />
                    <span className="font-medium text-slate-900">{c.poolConfigName}</span>
                    <span className="text-slate-500">× {c.scenarioName}</span>
                    <span className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-600">
                      {plural(c.runs, 'run')}
                    </span>
                  </label>
                );
              })}
            </div>
            <details className="text-sm">
              <summary className="cursor-pointer text-slate-500 hover:text-slate-800">
                Single runs ({e.runs.length})
              </summary>
              <div className="mt-2 flex flex-wrap gap-2">
                {e.runs.map((r) => {
                  const item: CompareItem = { kind: 'run', runId: r.id };
                  return (
                    <label
                      key={r.id}
                      className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-200 px-2.5 py-1.5 text-xs hover:border-brand-300"
                    >
                      <input type="checkbox" checked={has(item)} onChange={() => toggle(item)} />
                      {r.poolConfigName} #{r.repeatIndex + 1}{' '}
                      <span className="text-slate-500">{r.scenarioName}</span>
                    </label>
                  );
                })}
              </div>
            </details>
          </CardBody>
        </Card>
      ))}
    </div>
  );
}
