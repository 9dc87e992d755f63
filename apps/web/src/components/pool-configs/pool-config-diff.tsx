'use client';

import { useQuery } from '@tanstack/react-query';
import { poolStrategyMeta, PoolConfigSchema, type PoolStrategy } from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { cn } from '~/lib/cn';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td, Th } from '~/components/ui/table';
import { formatParam } from './format-param';

/** Effective values (defaults filled in by the shared schema), so the diff shows what runs get. */
function effective(c: {
  strategy: string;
  params: Record<string, number>;
  instanceCount: number;
}): Record<string, number | undefined> {
  const parsed = PoolConfigSchema.safeParse({
    strategy: c.strategy,
    params: c.params,
    instanceCount: c.instanceCount,
  });
  return parsed.success ? parsed.data.params : c.params;
}

export function PoolConfigDiff({ targetId, a, b }: { targetId: string; a: string; b: string }) {
  const trpc = useTRPC();
  const qa = useQuery(trpc.poolConfig.get.queryOptions({ id: a }));
  const qb = useQuery(trpc.poolConfig.get.queryOptions({ id: b }));
  const crumbs = [
    { href: '/targets', label: 'Targets' },
    { href: `/targets/${targetId}`, label: 'Target' },
  ];
  if (qa.isPending || qb.isPending) return <LoadingBlock rows={6} />;
  if (qa.isError || qb.isError)
    return <Alert tone="error">{messageOf(qa.error ?? qb.error)}</Alert>;
  const A = qa.data;
  const B = qb.data;
  const ea = effective(A);
  const eb = effective(B);
  const keys = [...new Set([...Object.keys(ea), ...Object.keys(eb)])];
  const label = (k: string) => {
    for (const s of [A.strategy, B.strategy]) {
      try {
        const p = poolStrategyMeta(s as PoolStrategy).params.find((x) => x.key === k);
        if (p) return p;
      } catch {
        // unknown strategy
      }
    }
    return undefined;
  };
  const rows: Array<[string, string, string]> = [
    ['Strategy', A.strategy, B.strategy],
    ['Instances', String(A.instanceCount), String(B.instanceCount)],
    ...keys.map((k): [string, string, string] => [
      label(k)?.label ?? k,
      ea[k] === undefined ? '—' : formatParam(label(k)?.unit, ea[k]),
      eb[k] === undefined ? '—' : formatParam(label(k)?.unit, eb[k]),
    ]),
  ];
  const changed = rows.filter((r) => r[1] !== r[2]).length;
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title="Compare pool configs"
        description={`${changed} of ${rows.length} settings differ. Defaults are filled in, so this is what each run applies.`}
      />
      <Table>
        <thead>
          <tr>
            <Th>Setting</Th>
            <Th>{A.name}</Th>
            <Th>{B.name}</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map(([k, va, vb]) => (
            <tr key={k} className={cn(va !== vb && 'bg-amber-50/60')}>
              <Td className="font-medium text-slate-800">
                {k}
                {va !== vb ? <span className="sr-only"> (differs)</span> : null}
              </Td>
              <Td className={cn('font-mono text-xs', va !== vb && 'text-red-700')}>{va}</Td>
              <Td className={cn('font-mono text-xs', va !== vb && 'text-emerald-700')}>{vb}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}
