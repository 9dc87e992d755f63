'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { Button } from '~/components/ui/button';
import { Dialog } from '~/components/ui/dialog';
import { Alert } from '~/components/ui/feedback';

/** What a schedule dialog does once saved: refresh the schedule list, then close. */
export function useScheduleSaved(onClose: () => void) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return async () => {
    await qc.invalidateQueries({ queryKey: trpc.schedule.list.queryKey() });
    onClose();
  };
}

/**
 * A dialog that changes one schedule: its fields, the server's error when it names no field
 * (`error`), then Cancel and Save.
 */
export function ScheduleDialog({
  title,
  description,
  onClose,
  onSubmit,
  error,
  saving,
  saveLabel,
  saveDisabled,
  children,
}: {
  title: string;
  description: string;
  onClose: () => void;
  onSubmit: (e: React.FormEvent<HTMLFormElement>) => void;
  error: unknown;
  saving: boolean;
  saveLabel: string;
  saveDisabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Dialog open onClose={onClose} title={title} description={description}>
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        {error ? <Alert tone="error">{messageOf(error)}</Alert> : null}
        {children}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={saving} disabled={saveDisabled}>
            {saveLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
