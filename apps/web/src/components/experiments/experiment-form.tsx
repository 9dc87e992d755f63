'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Play } from 'lucide-react';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { minPossiblePValue, runsNeededFor } from '@poolbench/stats';
import { previewCron } from '~/lib/schemas/cron';
import {
  ExperimentFormSchema,
  ScheduledExperimentFormSchema,
  type ExperimentFormInput,
  type ExperimentFormOutput,
} from '~/lib/schemas/experiment';
import { useServerErrors } from '~/lib/forms/server-errors';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime, formatDuration } from '~/lib/format';
import { cn } from '~/lib/cn';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { Field, Input, NumberInput, Select } from '~/components/ui/form';
import { HypothesesFields } from './hypotheses-fields';

const list = (v: string | null) => (v ? v.split(',').filter(Boolean) : []);

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function Picker({
  legend,
  items,
  selected,
  onChange,
  error,
  empty,
}: {
  legend: string;
  items: Array<{ id: string; name: string; hint?: string }>;
  selected: string[];
  onChange: (ids: string[]) => void;
  error?: string | null;
  empty: React.ReactNode;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">
        {legend} <span className="font-normal text-slate-400">({selected.length} selected)</span>
      </legend>
      {items.length === 0 ? <div className="text-sm text-slate-500">{empty}</div> : null}
      <div className="grid max-h-72 gap-1.5 overflow-y-auto pr-1 sm:grid-cols-2">
        {items.map((it) => {
          const on = selected.includes(it.id);
          return (
            <label
              key={it.id}
              className={cn(
                'flex cursor-pointer items-start gap-2.5 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                on ? 'border-brand-400 bg-brand-50/60' : 'border-slate-200 hover:border-slate-300',
              )}
            >
              <input
                type="checkbox"
                className="mt-0.5 accent-brand-600"
                checked={on}
                onChange={(e) =>
                  onChange(
                    e.target.checked ? [...selected, it.id] : selected.filter((x) => x !== it.id),
                  )
                }
              />
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-800">{it.name}</span>
                {it.hint ? (
                  <span className="block truncate text-xs text-slate-500">{it.hint}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p className="mt-1 text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Significance level of comparisons (the stats package's default). */
const ALPHA = 0.05;
/** The fewest repeats per side with which a comparison can reach p < ALPHA at all. */
const DECISIVE_REPEATS = runsNeededFor(ALPHA);
/** Default repeats: one more than the least, since the verdict is corrected across metrics. */
const DEFAULT_REPEATS = 5;

/** The form's fields a server problem can land on. */
const FORM_FIELDS = [
  'name',
  'targetId',
  'poolConfigIds',
  'scenarioIds',
  'repeats',
  'order',
  'loadGenerators',
  'schedule.name',
  'schedule.cron',
  'schedule.timezone',
] as const;

export function ExperimentForm() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const sp = useSearchParams();
  const { can } = useRole();
  const targets = useQuery(trpc.target.list.queryOptions());
  const scenarios = useQuery(trpc.scenario.list.queryOptions());
  const presetId = sp.get('presetId');
  const form = useForm<ExperimentFormInput, unknown, ExperimentFormOutput>({
    // The server's definition schema; the schedule fields are checked only when scheduling.
    resolver: (values, ctx, opts) =>
      zodResolver(
        values.mode === 'schedule' ? ScheduledExperimentFormSchema : ExperimentFormSchema,
      )(values, ctx, opts),
    // errors appear once a field was left (or on submit) and clear as soon as the value is fixed
    mode: 'onTouched',
    reValidateMode: 'onChange',
    defaultValues: {
      name: sp.get('name') ?? '',
      targetId: sp.get('targetId') ?? '',
      poolConfigIds: list(sp.get('poolConfigIds')),
      scenarioIds: list(sp.get('scenarioIds')),
      repeats: Number(sp.get('repeats') ?? DEFAULT_REPEATS) || DEFAULT_REPEATS,
      order: 'interleaved',
      loadGenerators: Number(sp.get('loadGenerators') ?? 1) || 1,
      presetId,
      mode: 'now',
      schedule: { name: '', cron: '0 3 * * *', timezone: 'UTC' },
      hypotheses: [],
    },
  });
  const { control, register, setValue, formState } = form;
  const errors = formState.errors;
  const [targetId, poolConfigIds, scenarioIds, repeatsRaw, mode, cron, timezone, name] = useWatch({
    control,
    name: [
      'targetId',
      'poolConfigIds',
      'scenarioIds',
      'repeats',
      'mode',
      'schedule.cron',
      'schedule.timezone',
      'name',
    ],
  });
  const repeats =
    typeof repeatsRaw === 'number' && Number.isInteger(repeatsRaw) && repeatsRaw >= 1
      ? repeatsRaw
      : undefined;
  const effectiveTarget = targetId || targets.data?.[0]?.id || '';
  const configs = useQuery({
    ...trpc.poolConfig.list.queryOptions({ targetId: effectiveTarget }),
    enabled: Boolean(effectiveTarget),
  });

  const estimateInput = useDebounced({ poolConfigIds, scenarioIds, repeats: repeats ?? 1 }, 250);
  const estimate = useQuery({
    ...trpc.experiment.estimate.queryOptions(estimateInput),
    enabled:
      estimateInput.poolConfigIds.length > 0 &&
      estimateInput.scenarioIds.length > 0 &&
      repeats !== undefined,
    placeholderData: keepPreviousData,
  });
  // computed here, in the browser, from the same function the server checks with
  const cronPreview = useMemo(() => previewCron(cron, timezone), [cron, timezone]);

  const launch = useMutation(
    trpc.experiment.launch.mutationOptions({
      onSuccess: async (r) => {
        await qc.invalidateQueries();
        // a launch while the queue is down is stored as queued; the experiment page says so
        router.push(`/experiments/${r.experimentId}${r.enqueued ? '' : '?queue=unavailable'}`);
      },
    }),
  );
  const schedule = useMutation(
    trpc.experiment.schedule.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries();
        router.push('/schedules');
      },
    }),
  );
  const m = mode === 'now' ? launch : schedule;
  // server paths: the definition's own fields (launch) or under definition./schedule. (schedule)
  useServerErrors(m.error, form.setError, (path) => {
    const p = path.replace(/^definition\./, '');
    // a hypothesis problem lands on its own field (hypotheses.0.candidate.poolConfigId …)
    if (/^hypotheses\.\d+\.(base|candidate|metric|expect|band|bandUnit)/.test(p))
      return p as FieldPath<ExperimentFormInput>;
    return FORM_FIELDS.find((f) => f === p) ?? null;
  });

  if (targets.isPending || scenarios.isPending) return <LoadingBlock rows={6} />;
  if (targets.isError) return <Alert tone="error">{messageOf(targets.error)}</Alert>;
  if (targets.data.length === 0) {
    return (
      <Alert tone="info" title="No target yet">
        An experiment runs pool configs of one target.{' '}
        <Link className="font-medium underline" href="/targets/new">
          Create a target
        </Link>{' '}
        first.
      </Alert>
    );
  }
  const validConfigIds = new Set(configs.data?.map((c) => c.id) ?? []);
  const chosenConfigs = configs.data
    ? poolConfigIds.filter((id) => validConfigIds.has(id))
    : poolConfigIds;
  const runCount =
    repeats === undefined ? null : chosenConfigs.length * scenarioIds.length * repeats;
  const onSubmit = form.handleSubmit((v) => {
    const def = {
      name: v.name || 'Experiment',
      targetId: effectiveTarget,
      poolConfigIds: chosenConfigs,
      scenarioIds: v.scenarioIds,
      repeats: v.repeats,
      order: v.order,
      loadGenerators: v.loadGenerators,
      presetId: v.presetId,
      hypotheses: v.hypotheses,
    };
    if (v.mode === 'now') launch.mutate(def);
    else
      schedule.mutate({
        definition: def,
        schedule: {
          name: v.schedule.name || def.name,
          cron: v.schedule.cron,
          timezone: v.schedule.timezone,
        },
      });
  });

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_22rem]"
      noValidate
      onSubmit={(e) => void onSubmit(e)}
    >
      <div className="space-y-6">
        {m.isError ? (
          <Alert
            tone="error"
            title={
              mode === 'now' ? 'Could not start the experiment' : 'Could not save the schedule'
            }
          >
            {messageOf(m.error)}
          </Alert>
        ) : null}
        <Card>
          <CardHeader title="What to compare" />
          <CardBody className="space-y-5">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Name" error={errors.name?.message}>
                {(p) => (
                  <Input {...p} {...register('name')} placeholder="lazy vs prewarm, cold start" />
                )}
              </Field>
              <Field label="Target" error={errors.targetId?.message}>
                {(p) => (
                  <Select
                    {...p}
                    value={effectiveTarget}
                    onChange={(e) => {
                      setValue('targetId', e.target.value, {
                        shouldValidate: formState.isSubmitted,
                      });
                      setValue('poolConfigIds', []);
                    }}
                  >
                    {targets.data.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name} ({t.kind})
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
            </div>
            {configs.isPending && effectiveTarget ? (
              <LoadingBlock rows={2} />
            ) : (
              <Picker
                legend="Pool configs"
                items={(configs.data ?? []).map((c) => ({
                  id: c.id,
                  name: c.name,
                  hint: `${c.strategy}${c.instanceCount > 1 ? ` × ${c.instanceCount}` : ''}`,
                }))}
                selected={chosenConfigs}
                onChange={(ids) => setValue('poolConfigIds', ids, { shouldValidate: true })}
                error={errors.poolConfigIds?.message}
                empty={
                  <span>
                    This target has no pool configs.{' '}
                    <Link
                      className="font-medium text-brand-700 underline"
                      href={`/targets/${effectiveTarget}/pool-configs/new`}
                    >
                      Add one
                    </Link>
                    .
                  </span>
                }
              />
            )}
            <Picker
              legend="Scenarios"
              items={(scenarios.data ?? []).map((s) => ({
                id: s.id,
                name: s.name,
                hint: `${s.templateId} · ${formatDuration(s.estimatedDurationMs)}`,
              }))}
              selected={scenarioIds}
              onChange={(ids) => setValue('scenarioIds', ids, { shouldValidate: true })}
              error={errors.scenarioIds?.message}
              empty={
                <span>
                  No scenarios yet.{' '}
                  <Link className="font-medium text-brand-700 underline" href="/scenarios">
                    Create one or use a preset
                  </Link>
                  .
                </span>
              }
            />
            {repeats !== undefined && repeats < DECISIVE_REPEATS ? (
              <Alert
                tone="warning"
                title={`${repeats} ${repeats === 1 ? 'repeat' : 'repeats'} can never give a verdict`}
                action={
                  <Button
                    type="button"
                    variant="secondary"
                    size="sm"
                    onClick={() => setValue('repeats', DECISIVE_REPEATS, { shouldValidate: true })}
                  >
                    Use {DECISIVE_REPEATS}
                  </Button>
                }
              >
                <span data-testid="repeats-warning">
                  Comparisons use one value per run: with {repeats} per pool config the smallest
                  possible p-value is {minPossiblePValue(repeats, repeats).toPrecision(2)}, so no
                  difference can reach p &lt; {ALPHA}. {DECISIVE_REPEATS} per side is the least that
                  can; {DEFAULT_REPEATS} or more leave room for the correction across metrics.
                </span>
              </Alert>
            ) : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Repeats"
                help="Each pool config × scenario cell runs this many times; statistics compare runs, not requests."
                error={errors.repeats?.message}
              >
                {(p) => (
                  <Controller
                    control={control}
                    name="repeats"
                    render={({ field }) => (
                      <NumberInput
                        {...p}
                        min={1}
                        max={50}
                        value={field.value}
                        onValue={field.onChange}
                        onBlur={field.onBlur}
                        name={field.name}
                      />
                    )}
                  />
                )}
              </Field>
              <Field
                label="Load generators"
                help="Workers each run is split across (k6 execution segments); their seconds merge exactly. 1 = one k6 on one worker."
                error={errors.loadGenerators?.message}
              >
                {(p) => (
                  <Controller
                    control={control}
                    name="loadGenerators"
                    render={({ field }) => (
                      <NumberInput
                        {...p}
                        min={1}
                        max={16}
                        value={field.value}
                        onValue={field.onChange}
                        onBlur={field.onBlur}
                        name={field.name}
                      />
                    )}
                  />
                )}
              </Field>
              <Field
                label="Order"
                help="Interleaved (A B A B …) spreads drift of the machine evenly over the configs."
              >
                {(p) => (
                  <Select {...p} {...register('order')}>
                    <option value="interleaved">Interleaved (recommended)</option>
                    <option value="blocked">Blocked (A A B B)</option>
                  </Select>
                )}
              </Field>
            </div>
          </CardBody>
        </Card>
        <HypothesesFields
          control={control}
          errors={errors}
          trigger={form.trigger}
          configs={(configs.data ?? []).filter((c) => chosenConfigs.includes(c.id))}
          scenarios={(scenarios.data ?? []).filter((sc) => scenarioIds.includes(sc.id))}
        />
        <Card>
          <CardHeader title="When" />
          <CardBody className="space-y-4">
            <div
              role="radiogroup"
              aria-label="When to run"
              className="inline-flex rounded-lg border border-slate-200 p-0.5"
            >
              {(['now', 'schedule'] as const).map((k) => (
                <button
                  key={k}
                  type="button"
                  role="radio"
                  aria-checked={mode === k}
                  onClick={() => setValue('mode', k)}
                  className={cn(
                    'rounded-md px-4 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                    mode === k
                      ? 'bg-brand-600 text-white shadow-sm'
                      : 'text-slate-600 hover:text-slate-900',
                  )}
                >
                  {k === 'now' ? 'Run now' : 'On a schedule'}
                </button>
              ))}
            </div>
            {mode === 'schedule' ? (
              <div className="space-y-4">
                <div className="grid gap-4 sm:grid-cols-3">
                  <Field label="Schedule name" optional error={errors.schedule?.name?.message}>
                    {(p) => (
                      <Input
                        {...p}
                        {...register('schedule.name')}
                        placeholder={name || 'Nightly'}
                      />
                    )}
                  </Field>
                  {/* Live: what is wrong with the cron shows under Cron while typing, and a time zone problem under Time zone. */}
                  <Field
                    label="Cron"
                    help="minute hour day month weekday"
                    error={
                      cronPreview.field === 'cron'
                        ? cronPreview.error
                        : errors.schedule?.cron?.message
                    }
                  >
                    {(p) => (
                      <Input
                        {...p}
                        {...register('schedule.cron')}
                        className="font-mono"
                        data-testid="cron-input"
                      />
                    )}
                  </Field>
                  <Field
                    label="Time zone"
                    error={
                      cronPreview.field === 'timezone'
                        ? cronPreview.error
                        : errors.schedule?.timezone?.message
                    }
                  >
                    {(p) => (
                      <Input
                        {...p}
                        {...register('schedule.timezone')}
                        placeholder="UTC or Europe/Berlin"
                      />
                    )}
                  </Field>
                </div>
                {cronPreview.ok ? (
                  <div
                    className="rounded-md bg-slate-50 px-3 py-2 text-sm"
                    data-testid="cron-preview"
                  >
                    <p className="font-medium text-slate-800">{cronPreview.description}</p>
                    <p className="mt-1 text-xs text-slate-500">Next fire times:</p>
                    <ul className="mt-0.5 space-y-0.5 text-xs text-slate-600">
                      {cronPreview.next.map((n) => (
                        <li key={n}>{formatDateTime(n)}</li>
                      ))}
                    </ul>
                  </div>
                ) : cronPreview.field === 'cron' ? (
                  <p className="sr-only" data-testid="cron-error">
                    {cronPreview.error}
                  </p>
                ) : null}
              </div>
            ) : (
              <p className="text-sm text-slate-500">
                Runs are queued at once and picked up by the next free worker, one at a time per
                worker.
              </p>
            )}
          </CardBody>
        </Card>
      </div>
      <aside className="lg:sticky lg:top-6 lg:self-start">
        <Card>
          <CardHeader title="Summary" />
          <CardBody className="space-y-4">
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs uppercase tracking-wide text-slate-500">Runs</dt>
                <dd className="text-2xl font-semibold tabular-nums" data-testid="run-count">
                  {runCount ?? '—'}
                </dd>
              </div>
              <div>
                <dt className="text-xs uppercase tracking-wide text-slate-500">Est. duration</dt>
                <dd
                  className="text-2xl font-semibold tabular-nums"
                  data-testid="estimated-duration"
                >
                  {estimate.data &&
                  chosenConfigs.length &&
                  scenarioIds.length &&
                  repeats !== undefined
                    ? formatDuration(estimate.data.totalMs)
                    : '—'}
                </dd>
              </div>
            </dl>
            {estimate.data && chosenConfigs.length && scenarioIds.length ? (
              <p className="text-xs text-slate-500">
                {formatDuration(estimate.data.loadMs)} of load plus about 5 s set-up per run (
                {formatDuration(estimate.data.overheadMs)}).
              </p>
            ) : null}
            {chosenConfigs.length === 0 || scenarioIds.length === 0 ? (
              <p className="text-xs text-slate-500">
                Choose at least one pool config and one scenario.
              </p>
            ) : null}
            {estimate.isError ? (
              <p className="text-xs text-red-700">{messageOf(estimate.error)}</p>
            ) : null}
            {presetId ? <Badge tone="violet">From preset {presetId}</Badge> : null}
            {!can('member') ? (
              <Alert tone="warning">
                Viewers cannot start runs. Ask an admin for the member role.
              </Alert>
            ) : null}
            {can('member') ? (
              <Button type="submit" className="w-full" size="lg" loading={m.isPending}>
                {mode === 'now' ? (
                  <>
                    <Play className="size-4" /> Run experiment
                  </>
                ) : (
                  <>
                    <CalendarClock className="size-4" /> Save schedule
                  </>
                )}
              </Button>
            ) : null}
          </CardBody>
        </Card>
      </aside>
    </form>
  );
}
