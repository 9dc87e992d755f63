'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { useTRPC } from '~/lib/trpc/react';
import { comparePageKey } from './compare-page-key';
import { messageOf } from '~/lib/trpc/errors';
import { Button } from '~/components/ui/button';
import type { CompareItem } from '~/lib/compare/selection';

/** Marks a run or a cell as the baseline `name` of its target and scenario. */
export function SetBaselineButton({
  item,
  name = 'main',
  size = 'md',
  label,
  scope,
}: {
  item: CompareItem;
  name?: string;
  size?: 'sm' | 'md';
  label?: string;
  /** what exactly becomes the baseline, in words: "fixed 2 on Lab, scenario burst" */
  scope?: string;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const set = useMutation(
    trpc.baseline.set.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.baseline.list.queryKey() });
        void qc.invalidateQueries({ queryKey: comparePageKey() });
      },
    }),
  );
  return (
    <Button
      variant={set.isSuccess ? 'ghost' : 'secondary'}
      size={size}
      loading={set.isPending}
      onClick={() => set.mutate({ name, item })}
      title={
        set.isError
          ? messageOf(set.error)
          : scope
            ? `Save ${scope} as baseline '${name}': schedules and Trends compare this pool config with it; other configs keep their own baselines`
            : `Use as the '${name}' baseline of this pool config for its target and scenario`
      }
    >
      <Flag className="size-4" />{' '}
      {set.isSuccess
        ? `Baseline '${name}' set`
        : set.isError
          ? 'Could not set baseline'
          : (label ?? 'Set as baseline')}
    </Button>
  );
}
