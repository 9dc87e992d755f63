'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '~/lib/trpc/react';
import { settingRows } from '~/components/pool-configs/setting-rows';

/**
 * What differs between the two pool configs compared ("strategy fixed → elastic, Max connections
 * 10 → 20"): a comparison of configs that differ in several settings at once cannot say which
 * of them made the difference, so the page names them. Read from the configs as they are now,
 * with a link to every setting side by side.
 */
export function ConfigDifference({
  groups,
}: {
  groups: ReadonlyArray<{ poolConfigId: string | null; poolConfigName: string; targetId: string }>;
}) {
  const trpc = useTRPC();
  const [a, b] = groups;
  const two =
    groups.length === 2 &&
    a?.poolConfigId &&
    b?.poolConfigId &&
    a.poolConfigId !== b.poolConfigId &&
    a.targetId === b.targetId;
  const qa = useQuery({
    ...trpc.poolConfig.get.queryOptions({ id: a?.poolConfigId ?? '' }),
    enabled: Boolean(two),
  });
  const qb = useQuery({
    ...trpc.poolConfig.get.queryOptions({ id: b?.poolConfigId ?? '' }),
    enabled: Boolean(two),
  });
  if (!two || !qa.data || !qb.data) return null;
  const differ = settingRows(qa.data, qb.data).filter(([, x, y]) => x !== y);
  return (
    <p className="mb-4 text-sm text-slate-700" data-testid="config-difference">
      {differ.length === 0 ? (
        <>
          {a.poolConfigName} and {b.poolConfigName} have the same settings.
        </>
      ) : (
        <>
          <span className="font-medium">
            {a.poolConfigName} and {b.poolConfigName} differ in {differ.length}{' '}
            {differ.length === 1 ? 'setting' : 'settings'}:
          </span>{' '}
          {differ.map(([k, x, y]) => `${k} ${x} → ${y}`).join('; ')}
          {differ.length > 1
            ? '. A difference in the results may come from any of them.'
            : '.'}{' '}
        </>
      )}{' '}
      <Link
        className="font-medium text-brand-700 hover:underline"
        href={`/targets/${a.targetId}/pool-configs/diff?a=${a.poolConfigId}&b=${b.poolConfigId}`}
      >
        Every setting side by side
      </Link>
    </p>
  );
}
