'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  POOL_STRATEGY_META,
  runtimeOffer,
  type PoolParamKey,
  type PoolStrategy,
} from '@poolbench/scenarios';
import { RUNTIME_LABELS, type LabEnvironment } from '@poolbench/contracts';
import { PoolConfigSaveSchema } from '~/lib/schemas/pool-config';
import { serverSchemaResolver } from '~/lib/forms/server-schema-resolver';
import { useServerErrors } from '~/lib/forms/server-errors';
import { fieldError } from '~/lib/forms/field-error';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { cn } from '~/lib/cn';
import { Button } from '~/components/ui/button';
import { FormActions } from '~/components/ui/form-actions';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { Field, Input } from '~/components/ui/form';
import { NumberField } from '~/components/ui/number-field';

export interface PoolConfigInitial {
  id: string;
  name: string;
  strategy: string;
  params: Record<string, number>;
  instanceCount: number;
}

const UNIT_LABEL: Record<string, string> = {
  ms: 'ms',
  connections: 'conns',
  count: '',
  shards: 'shards',
};

interface PoolConfigFormValues {
  name: string;
  strategy: PoolStrategy;
  params: Record<string, number | undefined>;
  instanceCount: number | undefined;
}

/** Only params the user set are sent; the schema fills in the documented defaults. */
export const toPoolConfigSave = (v: PoolConfigFormValues) => ({
  name: v.name,
  config: {
    strategy: v.strategy,
    params: Object.fromEntries(Object.entries(v.params).filter(([, x]) => x !== undefined)),
    instanceCount: v.instanceCount,
  },
});
/** `config.params.maxConns` (the request path) is the form's `params.maxConns`. */
export const poolConfigField = (path: string) =>
  path === 'name' ? path : path.startsWith('config.') ? path.slice('config.'.length) : null;
const resolver = serverSchemaResolver<PoolConfigFormValues, z.output<typeof PoolConfigSaveSchema>>(
  PoolConfigSaveSchema,
  toPoolConfigSave,
  poolConfigField,
);

export function PoolConfigForm({
  targetId,
  initial,
  environment,
}: {
  targetId: string;
  initial?: PoolConfigInitial;
  /**
   * A managed target's environment (runtime, database), with the config's own overrides: the
   * form offers exactly what that runtime supports. Absent for URL targets: every strategy.
   */
  environment?: LabEnvironment | null;
}) {
  const offer = environment !== undefined ? runtimeOffer(environment) : null;
  const strategies = offer
    ? POOL_STRATEGY_META.filter((m) => offer.strategies.includes(m.strategy))
    : POOL_STRATEGY_META;
  const defaultStrategy: PoolStrategy = strategies.some((m) => m.strategy === 'lazy')
    ? 'lazy'
    : strategies[0]!.strategy;
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const form = useForm<PoolConfigFormValues, unknown, z.output<typeof PoolConfigSaveSchema>>({
    // The server's own schema: a parameter's problem shows while typing (as before) and clears as soon as it is fixed.
    resolver,
    mode: 'onChange',
    defaultValues: {
      name: initial?.name ?? '',
      strategy: (initial?.strategy as PoolStrategy | undefined) ?? defaultStrategy,
      params: initial?.params ?? {},
      instanceCount: initial?.instanceCount ?? 1,
    },
  });
  const { control, register, setValue, getValues, formState } = form;
  const err = (path: string) => fieldError(formState.errors, path);
  // Values per strategy, so switching back and forth does not lose what was typed.
  const paramsBy = useRef<Record<string, PoolConfigFormValues['params']>>({});
  const [strategy, params] = useWatch({ control, name: ['strategy', 'params'] });
  const meta = POOL_STRATEGY_META.find((m) => m.strategy === strategy)!;
  // only the params this runtime honours (the server refuses a value for the others)
  const shownParams = offer
    ? meta.params.filter((pm) => offer.honours(strategy, pm.key as PoolParamKey))
    : meta.params;
  const hiddenParams = meta.params.length - shownParams.length;
  const switchStrategy = (next: PoolStrategy) => {
    paramsBy.current[strategy] = getValues('params');
    setValue('strategy', next);
    setValue('params', paramsBy.current[next] ?? {}, { shouldValidate: formState.isSubmitted });
  };

  const done = async () => {
    await qc.invalidateQueries({ queryKey: trpc.poolConfig.list.queryKey() });
    router.push(`/targets/${targetId}`);
  };
  const create = useMutation(trpc.poolConfig.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.poolConfig.update.mutationOptions({ onSuccess: done }));
  const m = initial ? update : create;
  useServerErrors(m.error, form.setError, poolConfigField);
  const onSubmit = form.handleSubmit((valid) =>
    initial ? update.mutate({ id: initial.id, ...valid }) : create.mutate({ targetId, ...valid }),
  );

  return (
    <form className="space-y-6" noValidate onSubmit={(e) => void onSubmit(e)}>
      {m.isError ? (
        <Alert tone="error" title="Could not save the pool config">
          {/* problems without a field of this form are spelled out here, not "see below" */}
          {Object.entries(problemsOf(m.error))
            .filter(([path]) => !poolConfigField(path))
            .map(([path, message]) => `${path}: ${message}`)
            .join('; ') || messageOf(m.error)}
        </Alert>
      ) : null}
      <Card>
        <CardHeader
          title="Strategy"
          description={
            offer
              ? `How the target manages its database connections. ${RUNTIME_LABELS[offer.runtime]} on ${offer.database === 'mariadb' ? 'MariaDB' : 'Postgres'} supports these ${strategies.length} (docs/runtimes.md).`
              : 'How the target manages its database (and upstream) connections.'
          }
        />
        <CardBody>
          <fieldset aria-describedby={err('strategy') ? 'strategy-error' : undefined}>
            <legend className="sr-only">Pool strategy</legend>
            {err('strategy') ? (
              <p id="strategy-error" role="alert" className="mb-2 text-sm text-red-700">
                {err('strategy')}
              </p>
            ) : null}
            <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
              {strategies.map((s) => (
                <label
                  key={s.strategy}
                  className={cn(
                    'cursor-pointer rounded-lg border p-3 text-left transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                    strategy === s.strategy
                      ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500'
                      : 'border-slate-200 hover:border-slate-300',
                  )}
                >
                  <input
                    type="radio"
                    name="strategy"
                    value={s.strategy}
                    checked={strategy === s.strategy}
                    onChange={() => switchStrategy(s.strategy)}
                    className="sr-only"
                  />
                  <span className="flex items-center justify-between">
                    <span className="text-sm font-semibold text-slate-900">{s.label}</span>
                    <code className="text-[10px] text-slate-500">{s.strategy}</code>
                  </span>
                  <span className="mt-1 line-clamp-3 block text-xs text-slate-500">
                    {s.description}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title={`${meta.label} parameters`}
          description="Leave a field empty to use the default shown."
        />
        <CardBody className="space-y-5">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" error={err('name')}>
              {(p) => (
                <Input
                  {...p}
                  {...register('name')}
                  placeholder={`${strategy} ${params.maxConns ?? ''}`.trim()}
                />
              )}
            </Field>
            <NumberField
              label="Instances"
              help="Target processes started per run, each with these settings."
              error={err('instanceCount')}
              control={control}
              name="instanceCount"
              min={1}
              max={16}
            />
          </div>
          {shownParams.length === 0 ? (
            <p className="text-sm text-slate-500">This strategy has no parameters.</p>
          ) : null}
          {hiddenParams > 0 && offer ? (
            <p className="text-xs text-slate-500" data-testid="params-not-honoured">
              {hiddenParams} parameter{hiddenParams === 1 ? ' is' : 's are'} not shown: the{' '}
              {RUNTIME_LABELS[offer.runtime]} runtime does not apply{' '}
              {hiddenParams === 1 ? 'it' : 'them'} with this strategy.
            </p>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {shownParams.map((pm) => (
              <NumberField
                key={pm.key}
                label={
                  <span>
                    {pm.label}{' '}
                    {UNIT_LABEL[pm.unit] ? (
                      <span className="font-normal text-slate-500">({UNIT_LABEL[pm.unit]})</span>
                    ) : null}
                  </span>
                }
                help={pm.help}
                error={err(`params.${pm.key}`)}
                control={control}
                name={`params.${pm.key}`}
                min={pm.min}
                max={pm.max}
                placeholder={pm.default !== undefined ? `default ${pm.default}` : 'derived'}
              />
            ))}
          </div>
        </CardBody>
      </Card>
      <FormActions>
        <Button type="submit" loading={m.isPending}>
          {initial ? 'Save pool config' : 'Create pool config'}
        </Button>
      </FormActions>
    </form>
  );
}
