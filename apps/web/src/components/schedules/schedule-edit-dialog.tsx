'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { previewCron } from '~/lib/schemas/cron';
import { ScheduleUpdateSchema } from '~/lib/schemas/experiment';
import { useServerErrors } from '~/lib/forms/server-errors';
import { ScheduleDialog, useScheduleSaved } from './schedule-dialog';
import { formatDateTime } from '~/lib/format';
import { useTRPC } from '~/lib/trpc/react';
import { Field, Input } from '~/components/ui/form';
import { NumberField } from '~/components/ui/number-field';

type Values = z.input<typeof ScheduleUpdateSchema>;
const FIELDS = ['name', 'cron', 'timezone', 'repeats'] as const;

/** Edit a schedule in place: the cron is explained in words and its next fire times shown as you type. */
export function ScheduleEditDialog({
  schedule,
  onClose,
}: {
  schedule: { id: string; name: string; cron: string; timezone: string; repeats: number };
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const saved = useScheduleSaved(onClose);
  const form = useForm<Values, unknown, z.output<typeof ScheduleUpdateSchema>>({
    resolver: zodResolver(ScheduleUpdateSchema),
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues: {
      name: schedule.name,
      cron: schedule.cron,
      timezone: schedule.timezone,
      repeats: schedule.repeats,
    },
  });
  const [cron, timezone] = useWatch({ control: form.control, name: ['cron', 'timezone'] });
  const preview = useMemo(() => previewCron(cron, timezone, 3), [cron, timezone]);
  const save = useMutation(
    trpc.schedule.update.mutationOptions({
      onSuccess: saved,
    }),
  );
  useServerErrors(save.error, form.setError, (path) => FIELDS.find((f) => f === path) ?? null);
  const errors = form.formState.errors;
  return (
    <ScheduleDialog
      title={`Edit ${schedule.name}`}
      description="Experiments it already started keep their settings; workers pick up a new cron at their next sync."
      onClose={onClose}
      onSubmit={(e) => void form.handleSubmit((v) => save.mutate({ id: schedule.id, ...v }))(e)}
      error={Object.keys(errors).length ? null : save.error}
      saving={save.isPending}
      saveLabel="Save schedule"
      saveDisabled={!preview.ok}
    >
      <Field label="Name" error={errors.name?.message}>
        {(p) => <Input {...p} {...form.register('name')} />}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Cron"
          help="minute hour day month weekday"
          error={
            preview.ok
              ? errors.cron?.message
              : preview.field === 'cron'
                ? preview.error
                : errors.cron?.message
          }
        >
          {(p) => <Input {...p} {...form.register('cron')} className="font-mono" />}
        </Field>
        <Field
          label="Time zone"
          error={
            !preview.ok && preview.field === 'timezone' ? preview.error : errors.timezone?.message
          }
        >
          {(p) => <Input {...p} {...form.register('timezone')} />}
        </Field>
      </div>
      {preview.ok ? (
        <p className="text-xs text-slate-600" data-testid="schedule-edit-preview">
          {preview.description}; next: {preview.next.map((n) => formatDateTime(n)).join(', ')}
        </p>
      ) : null}
      <NumberField
        label="Repeats"
        help="of every cell, in each experiment the schedule starts"
        error={errors.repeats?.message}
        control={form.control}
        name="repeats"
        min={1}
        max={50}
      />
    </ScheduleDialog>
  );
}
