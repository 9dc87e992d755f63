'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ScheduleNotifySchema, type ScheduleNotifyInput } from '~/lib/schemas/schedule-notify';
import { useServerErrors } from '~/lib/forms/server-errors';
import { ScheduleDialog, useScheduleSaved } from './schedule-dialog';
import { useTRPC } from '~/lib/trpc/react';
import { Checkbox, Field, Input, Select } from '~/components/ui/form';

const FIELDS = [
  'baselineName',
  'notifyOn',
  'webhookFormat',
  'webhookUrl',
  'webhookSecret',
  'settleUpToRepeats',
] as const;

export interface NotifySettings {
  id: string;
  name: string;
  targetId: string;
  baselineName: string | null;
  notifyOn: 'regression' | 'always';
  settleUpToRepeats: number | null;
  webhook: { host: string; format: 'generic' | 'slack' } | null;
}

/**
 * What a schedule compares itself with and where it tells about it (docs/notifications.md). The
 * stored webhook URL and secret are never shown (the URL of a Slack webhook is a credential): the
 * host stands for them, and empty fields keep them.
 */
export function ScheduleNotifyDialog({
  schedule,
  onClose,
}: {
  schedule: NotifySettings;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const saved = useScheduleSaved(onClose);
  const baselines = useQuery(trpc.baseline.list.queryOptions({ targetId: schedule.targetId }));
  const names = [...new Set((baselines.data ?? []).map((b) => b.name))].sort();
  const form = useForm<ScheduleNotifyInput, unknown, z.output<typeof ScheduleNotifySchema>>({
    resolver: zodResolver(ScheduleNotifySchema),
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues: {
      baselineName: schedule.baselineName ?? '',
      notifyOn: schedule.notifyOn,
      webhookFormat: schedule.webhook?.format ?? 'generic',
      webhookUrl: '',
      webhookSecret: '',
      removeWebhook: false,
      settleUpToRepeats: schedule.settleUpToRepeats,
    },
  });
  const remove = useWatch({ control: form.control, name: 'removeWebhook' });
  const baselineName = useWatch({ control: form.control, name: 'baselineName' }) ?? '';
  const save = useMutation(
    trpc.schedule.setNotify.mutationOptions({
      onSuccess: saved,
    }),
  );
  useServerErrors(save.error, form.setError, (path) => FIELDS.find((f) => f === path) ?? null);
  const errors = form.formState.errors;
  const stored = schedule.webhook;
  return (
    <ScheduleDialog
      title={`Notifications of ${schedule.name}`}
      description="When all runs of a firing ended, each cell is compared with the baseline of this name (same test as the compare view and the CI gate); a regression is sent to the webhook, signed with HMAC-SHA256."
      onClose={onClose}
      onSubmit={(e) => void form.handleSubmit((v) => save.mutate({ id: schedule.id, ...v }))(e)}
      error={Object.keys(errors).length ? null : save.error}
      saving={save.isPending}
      saveLabel="Save notifications"
    >
      <Field
        label="Compare with baseline"
        help={
          names.length
            ? `Baselines of this target: ${names.join(', ')}`
            : 'No baselines saved for this target yet: save one from the compare view.'
        }
        error={errors.baselineName?.message}
      >
        {(p) => (
          <>
            <Input
              {...p}
              {...form.register('baselineName')}
              list="notify-baselines"
              placeholder="e.g. nightly"
            />
            <datalist id="notify-baselines">
              {names.map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      {baselineName.trim() ? (
        <BaselineCells scheduleId={schedule.id} baselineName={baselineName.trim()} />
      ) : null}
      <Field label="Notify" error={errors.notifyOn?.message}>
        {(p) => (
          <Select {...p} {...form.register('notifyOn')}>
            <option value="regression">on a regression</option>
            <option value="always">after every firing (pass, regression, no baseline)</option>
          </Select>
        )}
      </Field>
      <Field
        label="When suspected"
        help="A suspected regression leans worse beyond the floor at the check's level but is not decided yet; an incomplete firing had too few runs (or too many crashed) to judge. Add repeats once, so each cell has this many, then decide: a fixed number set in advance keeps the test honest."
        error={errors.settleUpToRepeats?.message}
      >
        {(p) => (
          <Select
            {...p}
            {...form.register('settleUpToRepeats', {
              setValueAs: (v: unknown) => (v === '' || v === null ? null : Number(v)),
            })}
            data-testid="settle-select"
          >
            <option value="">decide at once</option>
            {[5, 8, 10, 15, 20].map((n) => (
              <option key={n} value={n}>
                add repeats up to {n} per cell, then decide
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Webhook URL"
        optional
        help={
          stored
            ? `A webhook to ${stored.host} is set; leave empty to keep it.`
            : 'Where the JSON (or Slack message) is POSTed. Internal addresses need the team allowlist; redirects are not followed.'
        }
        error={errors.webhookUrl?.message}
      >
        {(p) => (
          <Input
            {...p}
            {...form.register('webhookUrl')}
            type="url"
            autoComplete="off"
            placeholder={stored ? `•••• ${stored.host}` : 'https://hooks.slack.com/services/…'}
            disabled={remove}
          />
        )}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Format" error={errors.webhookFormat?.message}>
          {(p) => (
            <Select {...p} {...form.register('webhookFormat')} disabled={remove}>
              <option value="generic">PoolBench JSON</option>
              <option value="slack">Slack-compatible</option>
            </Select>
          )}
        </Field>
        <Field
          label="Signing secret"
          help={
            stored
              ? 'Leave empty to keep the stored one.'
              : 'At least 16 characters; the receiver checks X-PoolBench-Signature with it.'
          }
          error={errors.webhookSecret?.message}
        >
          {(p) => (
            <Input
              {...p}
              {...form.register('webhookSecret')}
              type="password"
              autoComplete="new-password"
              disabled={remove}
            />
          )}
        </Field>
      </div>
      {stored ? (
        <Checkbox
          {...form.register('removeWebhook')}
          label="Remove the webhook"
          description="The comparison still runs and shows in the list."
        />
      ) : null}
    </ScheduleDialog>
  );
}

/** Per cell of the schedule's experiment, the baseline of this name a firing is compared with. */
function BaselineCells({ scheduleId, baselineName }: { scheduleId: string; baselineName: string }) {
  const trpc = useTRPC();
  const cells = useQuery(
    trpc.schedule.baselineCells.queryOptions(
      { id: scheduleId, baselineName },
      { placeholderData: (previous) => previous },
    ),
  );
  if (!cells.data) return null;
  return (
    <div
      className="rounded-md border border-slate-200 p-2 text-xs"
      data-testid="notify-baseline-cells"
    >
      <p className="mb-1 font-medium text-slate-700">
        Each cell is compared with its own pool config&apos;s baseline &ldquo;{baselineName}&rdquo;:
      </p>
      <table className="w-full">
        <thead className="sr-only">
          <tr>
            <th>Pool config</th>
            <th>Scenario</th>
            <th>Baseline</th>
          </tr>
        </thead>
        <tbody>
          {cells.data.map((c) => (
            <tr key={`${c.poolConfig.id}:${c.scenario.id}`} className="align-top">
              <td className="pr-2">{c.poolConfig.name}</td>
              <td className="pr-2 text-slate-500">{c.scenario.name}</td>
              <td>
                {c.baseline ? (
                  <span>
                    {c.baseline.from}
                    {c.baseline.experiment ? ` in ${c.baseline.experiment.name}` : ''}
                  </span>
                ) : (
                  <span className="text-amber-700">none: this cell will be “no baseline”</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
