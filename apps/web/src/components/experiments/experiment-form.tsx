'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { DEFAULT_RUN_ORDER } from '@poolbench/contracts';
import {
  ExperimentFormSchema,
  ScheduledExperimentFormSchema,
  type ExperimentFormInput,
  type ExperimentFormOutput,
} from '~/lib/schemas/experiment';
import { useServerErrors } from '~/lib/forms/server-errors';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { HypothesesFields } from './hypotheses-fields';
import { DEFAULT_REPEATS, WhatSection } from './experiment-form/what-section';
import { WhenSection } from './experiment-form/when-section';
import { SummaryAside } from './experiment-form/summary-aside';

const list = (v: string | null) => (v ? v.split(',').filter(Boolean) : []);

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

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
      order: DEFAULT_RUN_ORDER,
      loadGenerators: Number(sp.get('loadGenerators') ?? 1) || 1,
      presetId,
      // ?when=schedule: opened from the Schedules page's "Schedule an experiment"
      mode: sp.get('when') === 'schedule' ? 'schedule' : 'now',
      schedule: { name: '', cron: '0 3 * * *', timezone: 'UTC' },
      hypotheses: [],
    },
  });
  const { control, formState } = form;
  const errors = formState.errors;
  const [targetId, poolConfigIds, scenarioIds, repeatsRaw, mode] = useWatch({
    control,
    name: ['targetId', 'poolConfigIds', 'scenarioIds', 'repeats', 'mode'],
  });
  const repeats =
    typeof repeatsRaw === 'number' && Number.isInteger(repeatsRaw) && repeatsRaw >= 1
      ? repeatsRaw
      : undefined;
  // The select shows the first target when none was named (or the named one is not the team's):
  // the form holds that same id, so what is shown is what is validated and submitted.
  const effectiveTarget =
    (targets.data?.some((t) => t.id === targetId) ? targetId : targets.data?.[0]?.id) ?? '';
  useEffect(() => {
    if (effectiveTarget && effectiveTarget !== targetId)
      form.setValue('targetId', effectiveTarget, { shouldValidate: formState.isSubmitted });
  }, [effectiveTarget, targetId, form, formState.isSubmitted]);
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
    if (/^hypotheses\.\d+\.(base|candidate|metric|expect|band|bandUnit)/.test(p)) return p;
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
    <FormProvider {...form}>
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
          <WhatSection
            targets={targets.data}
            configs={configs}
            scenarios={scenarios.data ?? []}
            effectiveTarget={effectiveTarget}
            chosenConfigs={chosenConfigs}
            scenarioIds={scenarioIds}
            repeats={repeats}
          />
          <HypothesesFields
            control={control}
            errors={errors}
            trigger={form.trigger}
            configs={(configs.data ?? []).filter((c) => chosenConfigs.includes(c.id))}
            scenarios={(scenarios.data ?? []).filter((sc) => scenarioIds.includes(sc.id))}
          />
          <WhenSection />
        </div>
        <SummaryAside
          runCount={runCount}
          estimate={estimate}
          chosenConfigs={chosenConfigs}
          scenarioIds={scenarioIds}
          repeats={repeats}
          presetId={presetId}
          mode={mode}
          pending={m.isPending}
        />
      </form>
    </FormProvider>
  );
}
