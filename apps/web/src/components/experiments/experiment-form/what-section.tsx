'use client';

import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { minPossiblePValue, runsNeededFor } from '@poolbench/stats';
import { DEFAULT_RUN_ORDER, RUN_ORDER_LABELS, RUN_ORDERS } from '@poolbench/contracts';
import { formatDuration } from '~/lib/format';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { useExperimentForm } from './use-experiment-form';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { Field, Input, Select } from '~/components/ui/form';
import { NumberField } from '~/components/ui/number-field';
import { useTRPC } from '~/lib/trpc/react';
import { Picker } from './picker';

/** Significance level of comparisons (the stats package's default). */
const ALPHA = 0.05;
/** The fewest repeats per side with which a comparison can reach p < ALPHA at all. */
const DECISIVE_REPEATS = runsNeededFor(ALPHA);
/** Default repeats: one more than the least, since the verdict is corrected across metrics. */
export const DEFAULT_REPEATS = 5;

/** The target, its pool configs, the scenarios and how often each cell runs. */
export function WhatSection({
  targets,
  configs,
  scenarios,
  effectiveTarget,
  chosenConfigs,
  scenarioIds,
  repeats,
}: {
  targets: { id: string; name: string; kind: string }[];
  configs: {
    isPending: boolean;
    data?: { id: string; name: string; strategy: string; instanceCount: number }[];
  };
  scenarios: { id: string; name: string; templateId: string; estimatedDurationMs: number | null }[];
  effectiveTarget: string;
  chosenConfigs: string[];
  scenarioIds: string[];
  repeats: number | undefined;
}) {
  const { control, register, setValue, formState } = useExperimentForm();
  const errors = formState.errors;
  const trpc = useTRPC();
  // workers online now: more load generators per run than that is refused at launch
  const fleet = useQuery({ ...trpc.team.fleetLimits.queryOptions(), refetchInterval: 15_000 });
  const online = fleet.data?.onlineWorkers ?? null;
  const loadGenerators = useWatch({ control, name: 'loadGenerators' });
  return (
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
                  if (e.target.value === effectiveTarget) return;
                  setValue('targetId', e.target.value, {
                    shouldValidate: formState.isSubmitted,
                  });
                  // another target's pool configs are not this one's
                  setValue('poolConfigIds', []);
                }}
              >
                {targets.map((t) => (
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
          items={scenarios.map((s) => ({
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
          <NumberField
            label="Repeats"
            help="Each pool config × scenario cell runs this many times; statistics compare runs, not requests."
            error={errors.repeats?.message}
            control={control}
            name="repeats"
            min={1}
            max={50}
          />
          <NumberField
            label="Load generators"
            help={`Workers each run is split across (k6 execution segments); their seconds merge exactly. 1 = one k6 on one worker.${online === null ? '' : ` ${online} worker${online === 1 ? '' : 's'} online now.`}`}
            error={
              errors.loadGenerators?.message ??
              (online !== null && (loadGenerators ?? 1) > Math.max(1, online)
                ? `${loadGenerators} load generators need ${loadGenerators} workers online; ${online} ${online === 1 ? 'is' : 'are'} online, so the launch will be refused`
                : undefined)
            }
            control={control}
            name="loadGenerators"
            min={1}
            max={16}
          />
          <Field
            label="Order"
            help="Counterbalanced runs every config once per repeat and turns their order each repeat, so drift of the machine and an order effect (the first run after a pause) fall on every config alike."
          >
            {(p) => (
              <Select {...p} {...register('order')}>
                {RUN_ORDERS.map((o) => (
                  <option key={o} value={o}>
                    {RUN_ORDER_LABELS[o]}
                    {o === DEFAULT_RUN_ORDER ? ' (recommended)' : ''}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </div>
      </CardBody>
    </Card>
  );
}
