'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { POOL_STRATEGY_META, PoolConfigSchema, validatePoolConfig, type PoolStrategy } from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { cn } from '~/lib/cn';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { Field, Input, NumberInput } from '~/components/ui/form';

export interface PoolConfigInitial {
  id: string;
  name: string;
  strategy: string;
  params: Record<string, number>;
  instanceCount: number;
}

const UNIT_LABEL: Record<string, string> = { ms: 'ms', connections: 'conns', count: '', shards: 'shards' };

export function PoolConfigForm({ targetId, initial }: { targetId: string; initial?: PoolConfigInitial }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const [strategy, setStrategy] = useState<PoolStrategy>((initial?.strategy as PoolStrategy) ?? 'lazy');
  const [name, setName] = useState(initial?.name ?? '');
  const [instanceCount, setInstanceCount] = useState<number | undefined>(initial?.instanceCount ?? 1);
  // Values per strategy, so switching back and forth does not lose what was typed.
  const [paramsBy, setParamsBy] = useState<Record<string, Record<string, number | undefined>>>(initial ? { [initial.strategy]: initial.params } : {});
  const [touched, setTouched] = useState(false);
  const meta = POOL_STRATEGY_META.find((m) => m.strategy === strategy)!;
  const params = paramsBy[strategy] ?? {};
  // Only params the user set are sent; the schema fills in the documented defaults.
  const config = useMemo(
    () => ({ strategy, params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)), instanceCount }),
    [strategy, params, instanceCount],
  );
  const problems = useMemo(() => Object.fromEntries(validatePoolConfig(config).map((p) => [p.path, p.message])), [config]);

  const done = async () => {
    await qc.invalidateQueries({ queryKey: trpc.poolConfig.list.queryKey() });
    router.push(`/targets/${targetId}`);
  };
  const create = useMutation(trpc.poolConfig.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.poolConfig.update.mutationOptions({ onSuccess: done }));
  const m = initial ? update : create;
  const server = problemsOf(m.error);
  const err = (p: string) => (touched ? (problems[p] ?? null) : null) ?? server[p] ?? null;
  const nameError = touched && name.trim() === '' ? 'is required' : (server.name ?? null);

  return (
    <form
      className="space-y-6"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (Object.keys(problems).length > 0 || name.trim() === '') return;
        const parsed = PoolConfigSchema.safeParse(config);
        if (!parsed.success) return;
        const body = { name: name.trim(), config: parsed.data };
        if (initial) update.mutate({ id: initial.id, ...body });
        else create.mutate({ targetId, ...body });
      }}
    >
      {m.isError ? <Alert tone="error" title="Could not save the pool config">{messageOf(m.error)}</Alert> : null}
      <Card>
        <CardHeader title="Strategy" description="How the target manages its database (and upstream) connections." />
        <CardBody>
          <fieldset>
            <legend className="sr-only">Pool strategy</legend>
            <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
              {POOL_STRATEGY_META.map((s) => (
                <label
                  key={s.strategy}
                  className={cn(
                    'cursor-pointer rounded-lg border p-3 text-left transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
                    strategy === s.strategy ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500' : 'border-slate-200 hover:border-slate-300',
                  )}
                >
                  <input type="radio" name="strategy" value={s.strategy} checked={strategy === s.strategy} onChange={() => setStrategy(s.strategy)} className="sr-only" />
                  <span className="flex items-center justify-between">
                    <span className="text-sm font-semibold text-slate-900">{s.label}</span>
                    <code className="text-[10px] text-slate-400">{s.strategy}</code>
                  </span>
                  <span className="mt-1 line-clamp-3 block text-xs text-slate-500">{s.description}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </CardBody>
      </Card>
      <Card>
        <CardHeader title={`${meta.label} parameters`} description="Leave a field empty to use the default shown." />
        <CardBody className="space-y-5">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" error={nameError}>
              {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} placeholder={`${strategy} ${params.maxConns ?? ''}`.trim()} />}
            </Field>
            <Field label="Instances" help="Target processes started per run, each with these settings." error={err('instanceCount')}>
              {(p) => <NumberInput {...p} min={1} max={16} value={instanceCount} onValue={setInstanceCount} />}
            </Field>
          </div>
          {meta.params.length === 0 ? <p className="text-sm text-slate-500">This strategy has no parameters.</p> : null}
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {meta.params.map((pm) => (
              <Field
                key={pm.key}
                label={
                  <span>
                    {pm.label} {UNIT_LABEL[pm.unit] ? <span className="font-normal text-slate-400">({UNIT_LABEL[pm.unit]})</span> : null}
                  </span>
                }
                help={pm.help}
                error={err(`params.${pm.key}`)}
              >
                {(p) => (
                  <NumberInput
                    {...p}
                    min={pm.min}
                    max={pm.max}
                    placeholder={pm.default !== undefined ? `default ${pm.default}` : 'derived'}
                    value={params[pm.key]}
                    onValue={(v) => {
                      setTouched(true);
                      setParamsBy({ ...paramsBy, [strategy]: { ...params, [pm.key]: v } });
                    }}
                  />
                )}
              </Field>
            ))}
          </div>
        </CardBody>
      </Card>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => router.back()}>
          Cancel
        </Button>
        <Button type="submit" loading={m.isPending}>
          {initial ? 'Save pool config' : 'Create pool config'}
        </Button>
      </div>
    </form>
  );
}
