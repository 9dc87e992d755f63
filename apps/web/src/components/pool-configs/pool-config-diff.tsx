'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { cn } from '~/lib/cn';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td } from '~/components/ui/table';
import { targetCrumbs } from '~/components/targets/target-crumbs';
import { settingRows } from './setting-rows';

export function PoolConfigDiff({ targetId, a, b }: { targetId: string; a: string; b: string }) {
  const trpc = useTRPC();
  const qa = useQuery(trpc.poolConfig.get.queryOptions({ id: a }));
  const qb = useQuery(trpc.poolConfig.get.queryOptions({ id: b }));
  const crumbs = targetCrumbs({ id: targetId, name: 'Target' });
  if (qa.isPending || qb.isPending) return <LoadingBlock rows={6} />;
  if (qa.isError || qb.isError)
    return <Alert tone="error">{messageOf(qa.error ?? qb.error)}</Alert>;
  const A = qa.data;
  const B = qb.data;
  const rows = settingRows(A, B);
  const changed = rows.filter((r) => r[1] !== r[2]).length;
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        title="Compare pool configs"
        description={`${changed} of ${rows.length} settings differ. Defaults are filled in, so this is what each run applies.`}
      />
      <Table head={['Setting', A.name, B.name]}>
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
      </Table>
    </>
  );
}
