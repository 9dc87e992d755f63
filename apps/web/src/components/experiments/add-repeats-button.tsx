'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { ConfirmButton } from '~/components/ui/confirm-button';

/**
 * "Add repeats" for one finished experiment (experiment.extend, like the hypotheses card): asks
 * first, because it queues `addRepeats` more runs of every cell of the experiment.
 */
export function AddRepeatsButton({
  experimentId,
  experimentName,
  addRepeats,
}: {
  experimentId: string;
  experimentName: string;
  addRepeats: number;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const extend = useMutation(
    trpc.experiment.extend.mutationOptions({
      onSuccess: () => {
        // the experiment is running again: the compare view stops offering to extend it
        void qc.invalidateQueries({ queryKey: trpc.compare.repeatsNeeded.queryKey() });
        void qc.invalidateQueries({ queryKey: trpc.experiment.get.queryKey({ id: experimentId }) });
      },
    }),
  );
  const runs = addRepeats === 1 ? 'repeat' : 'repeats';
  if (extend.isSuccess) {
    return (
      <span className="text-xs text-slate-600" role="status">
        Added {addRepeats} {runs} to{' '}
        <Link
          href={`/experiments/${experimentId}`}
          className="font-medium text-brand-700 hover:underline"
        >
          {experimentName}
        </Link>
        .
      </span>
    );
  }
  return (
    <span className="inline-flex flex-col items-end gap-0.5">
      <ConfirmButton
        size="sm"
        variant="secondary"
        className="h-7 px-2 text-xs"
        loading={extend.isPending}
        question={`Add ${addRepeats} ${runs} to ${experimentName}?`}
        detail={`Every cell of the experiment gets ${addRepeats} more ${addRepeats === 1 ? 'run' : 'runs'}, after its earlier ones, continuing the experiment's order, with the same pool configs and scenarios. This comparison counts them once they finish.`}
        confirmLabel={`Add ${addRepeats} ${runs}`}
        cancelLabel="Not now"
        confirmVariant="primary"
        onConfirm={() => extend.mutate({ id: experimentId, addRepeats })}
        data-testid="add-repeats"
      >
        Add {addRepeats} {runs}
      </ConfirmButton>
      {extend.isError ? (
        <span className="text-xs text-red-700" role="alert">
          {messageOf(extend.error)}
        </span>
      ) : null}
    </span>
  );
}
