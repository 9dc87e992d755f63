'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Play } from 'lucide-react';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { minPossiblePValue, runsNeededFor } from '@poolbench/stats';
import { ExperimentDefinitionSchema } from '~/lib/schemas/experiment';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { zodProblems } from '~/lib/zod-problems';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime, formatDuration } from '~/lib/format';
import { cn } from '~/lib/cn';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { Field, Input, NumberInput, Select } from '~/components/ui/form';

const list = (v: string | null) => (v ? v.split(',').filter(Boolean) : []);

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function Picker({ legend, items, selected, onChange, error, empty }: { legend: string; items: Array<{ id: string; name: string; hint?: string }>; selected: string[]; onChange: (ids: string[]) => void; error?: string | null; empty: React.ReactNode }) {
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
            <label key={it.id} className={cn('flex cursor-pointer items-start gap-2.5 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500', on ? 'border-brand-400 bg-brand-50/60' : 'border-slate-200 hover:border-slate-300')}>
              <input type="checkbox" className="mt-0.5 accent-brand-600" checked={on} onChange={(e) => onChange(e.target.checked ? [...selected, it.id] : selected.filter((x) => x !== it.id))} />
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-800">{it.name}</span>
                {it.hint ? <span className="block truncate text-xs text-slate-500">{it.hint}</span> : null}
              </span>
            </label>
          );
        })}
      </div>
      {error ? <p className="mt-1 text-xs font-medium text-red-700" role="alert">{error}</p> : null}
    </fieldset>
  );
}

/** Significance level of comparisons (the stats package's default). */
const ALPHA = 0.05;
/** The fewest repeats per side with which a comparison can reach p < ALPHA at all. */
const DECISIVE_REPEATS = runsNeededFor(ALPHA);
/** Default repeats: one more than the least, since the verdict is corrected across metrics. */
const DEFAULT_REPEATS = 5;

export function ExperimentForm() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const sp = useSearchParams();
  const { can } = useRole();
  const targets = useQuery(trpc.target.list.queryOptions());
  const scenarios = useQuery(trpc.scenario.list.queryOptions());
  const [targetId, setTargetId] = useState(sp.get('targetId') ?? '');
  const effectiveTarget = targetId || targets.data?.[0]?.id || '';
  const configs = useQuery({ ...trpc.poolConfig.list.queryOptions({ targetId: effectiveTarget }), enabled: Boolean(effectiveTarget) });
  const [name, setName] = useState(sp.get('name') ?? '');
  const [poolConfigIds, setPoolConfigIds] = useState<string[]>(list(sp.get('poolConfigIds')));
  const [scenarioIds, setScenarioIds] = useState<string[]>(list(sp.get('scenarioIds')));
  const [repeats, setRepeats] = useState<number | undefined>(Number(sp.get('repeats') ?? DEFAULT_REPEATS) || DEFAULT_REPEATS);
  const [order, setOrder] = useState<'interleaved' | 'blocked'>('interleaved');
  const [loadGenerators, setLoadGenerators] = useState<number | undefined>(Number(sp.get('loadGenerators') ?? 1) || 1);
  const [mode, setMode] = useState<'now' | 'schedule'>('now');
  const [cron, setCron] = useState('0 3 * * *');
  const [timezone, setTimezone] = useState('UTC');
  const [scheduleName, setScheduleName] = useState('');
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const presetId = sp.get('presetId');

  const estimateInput = useDebounced({ poolConfigIds, scenarioIds, repeats: repeats ?? 1 }, 250);
  const estimate = useQuery({
    ...trpc.experiment.estimate.queryOptions(estimateInput),
    enabled: estimateInput.poolConfigIds.length > 0 && estimateInput.scenarioIds.length > 0 && (repeats ?? 0) >= 1,
    placeholderData: keepPreviousData,
  });
  const cronInput = useDebounced({ cron, timezone }, 250);
  const cronPreview = useQuery({ ...trpc.schedule.preview.queryOptions(cronInput), enabled: mode === 'schedule' });

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
  const server = problemsOf(m.error);
  const err = (p: string) => clientErrors[p] ?? server[p] ?? server[`definition.${p}`] ?? null;

  if (targets.isPending || scenarios.isPending) return <LoadingBlock rows={6} />;
  if (targets.isError) return <Alert tone="error">{messageOf(targets.error)}</Alert>;
  if (targets.data.length === 0) {
    return (
      <Alert tone="info" title="No target yet">
        An experiment runs pool configs of one target. <Link className="font-medium underline" href="/targets/new">Create a target</Link> first.
      </Alert>
    );
  }
  const validConfigIds = new Set(configs.data?.map((c) => c.id) ?? []);
  const chosenConfigs = configs.data ? poolConfigIds.filter((id) => validConfigIds.has(id)) : poolConfigIds;

  return (
    <form
      className="grid gap-6 lg:grid-cols-[1fr_22rem]"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const def = { name: name.trim() || 'Experiment', targetId: effectiveTarget, poolConfigIds: chosenConfigs, scenarioIds, repeats: repeats as number, order, loadGenerators: loadGenerators as number, presetId };
        const problems = zodProblems(ExperimentDefinitionSchema.safeParse(def));
        if (mode === 'schedule' && !cronPreview.data?.ok) problems.cron = cronPreview.data?.error ?? 'is not a valid cron expression';
        setClientErrors(problems);
        if (Object.keys(problems).length > 0) return;
        if (mode === 'now') launch.mutate(def);
        else schedule.mutate({ definition: def, schedule: { name: scheduleName.trim() || def.name, cron, timezone } });
      }}
    >
      <div className="space-y-6">
        {m.isError ? <Alert tone="error" title={mode === 'now' ? 'Could not start the experiment' : 'Could not save the schedule'}>{messageOf(m.error)}</Alert> : null}
        <Card>
          <CardHeader title="What to compare" />
          <CardBody className="space-y-5">
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Name" error={err('name')}>
                {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} placeholder="lazy vs prewarm, cold start" />}
              </Field>
              <Field label="Target" error={err('targetId')}>
                {(p) => (
                  <Select
                    {...p}
                    value={effectiveTarget}
                    onChange={(e) => {
                      setTargetId(e.target.value);
                      setPoolConfigIds([]);
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
                items={(configs.data ?? []).map((c) => ({ id: c.id, name: c.name, hint: `${c.strategy}${c.instanceCount > 1 ? ` × ${c.instanceCount}` : ''}` }))}
                selected={chosenConfigs}
                onChange={setPoolConfigIds}
                error={err('poolConfigIds')}
                empty={
                  <span>
                    This target has no pool configs. <Link className="font-medium text-brand-700 underline" href={`/targets/${effectiveTarget}/pool-configs/new`}>Add one</Link>.
                  </span>
                }
              />
            )}
            <Picker
              legend="Scenarios"
              items={(scenarios.data ?? []).map((s) => ({ id: s.id, name: s.name, hint: `${s.templateId} · ${formatDuration(s.estimatedDurationMs)}` }))}
              selected={scenarioIds}
              onChange={setScenarioIds}
              error={err('scenarioIds')}
              empty={
                <span>
                  No scenarios yet. <Link className="font-medium text-brand-700 underline" href="/scenarios">Create one or use a preset</Link>.
                </span>
              }
            />
            {repeats !== undefined && repeats < DECISIVE_REPEATS ? (
              <Alert
                tone="warning"
                title={`${repeats} ${repeats === 1 ? 'repeat' : 'repeats'} can never give a verdict`}
                action={
                  <Button type="button" variant="secondary" size="sm" onClick={() => setRepeats(DECISIVE_REPEATS)}>
                    Use {DECISIVE_REPEATS}
                  </Button>
                }
              >
                <span data-testid="repeats-warning">
                  Comparisons use one value per run: with {repeats} per pool config the smallest possible p-value is{' '}
                  {minPossiblePValue(repeats, repeats).toPrecision(2)}, so no difference can reach p &lt; {ALPHA}. {DECISIVE_REPEATS} per side is the least that can;{' '}
                  {DEFAULT_REPEATS} or more leave room for the correction across metrics.
                </span>
              </Alert>
            ) : null}
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Repeats" help="Each pool config × scenario cell runs this many times; statistics compare runs, not requests." error={err('repeats')}>
                {(p) => <NumberInput {...p} min={1} max={50} value={repeats} onValue={setRepeats} />}
              </Field>
              <Field
                label="Load generators"
                help="Workers each run is split across (k6 execution segments); their seconds merge exactly. 1 = one k6 on one worker."
                error={err('loadGenerators')}
              >
                {(p) => <NumberInput {...p} min={1} max={16} value={loadGenerators} onValue={setLoadGenerators} />}
              </Field>
              <Field label="Order" help="Interleaved (A B A B …) spreads drift of the machine evenly over the configs.">
                {(p) => (
                  <Select {...p} value={order} onChange={(e) => setOrder(e.target.value as 'interleaved' | 'blocked')}>
                    <option value="interleaved">Interleaved (recommended)</option>
                    <option value="blocked">Blocked (A A B B)</option>
                  </Select>
                )}
              </Field>
            </div>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="When" />
          <CardBody className="space-y-4">
            <div role="radiogroup" aria-label="When to run" className="inline-flex rounded-lg border border-slate-200 p-0.5">
              {(['now', 'schedule'] as const).map((k) => (
                <button
                  key={k}
                  type="button"
                  role="radio"
                  aria-checked={mode === k}
                  onClick={() => setMode(k)}
                  className={cn('rounded-md px-4 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500', mode === k ? 'bg-brand-600 text-white shadow-sm' : 'text-slate-600 hover:text-slate-900')}
                >
                  {k === 'now' ? 'Run now' : 'On a schedule'}
                </button>
              ))}
            </div>
            {mode === 'schedule' ? (
              <div className="space-y-4">
                <div className="grid gap-4 sm:grid-cols-3">
                  <Field label="Schedule name" optional>
                    {(p) => <Input {...p} value={scheduleName} onChange={(e) => setScheduleName(e.target.value)} placeholder={name || 'Nightly'} />}
                  </Field>
                  <Field label="Cron" help="minute hour day month weekday" error={err('cron')}>
                    {(p) => <Input {...p} className="font-mono" value={cron} onChange={(e) => setCron(e.target.value)} />}
                  </Field>
                  <Field label="Time zone">
                    {(p) => <Input {...p} value={timezone} onChange={(e) => setTimezone(e.target.value)} placeholder="UTC or Europe/Berlin" />}
                  </Field>
                </div>
                {cronPreview.data ? (
                  cronPreview.data.ok ? (
                    <div className="rounded-md bg-slate-50 px-3 py-2 text-sm" data-testid="cron-preview">
                      <p className="font-medium text-slate-800">{cronPreview.data.description}</p>
                      <ul className="mt-1 space-y-0.5 text-xs text-slate-600">
                        {cronPreview.data.next.map((n) => (
                          <li key={n}>{formatDateTime(n)}</li>
                        ))}
                      </ul>
                    </div>
                  ) : (
                    <p className="text-xs font-medium text-red-700" data-testid="cron-error">{cronPreview.data.error}</p>
                  )
                ) : null}
              </div>
            ) : (
              <p className="text-sm text-slate-500">Runs are queued at once and picked up by the next free worker, one at a time per worker.</p>
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
                  {chosenConfigs.length * scenarioIds.length * (repeats ?? 0)}
                </dd>
              </div>
              <div>
                <dt className="text-xs uppercase tracking-wide text-slate-500">Est. duration</dt>
                <dd className="text-2xl font-semibold tabular-nums" data-testid="estimated-duration">
                  {estimate.data && chosenConfigs.length && scenarioIds.length ? formatDuration(estimate.data.totalMs) : '—'}
                </dd>
              </div>
            </dl>
            {estimate.data && chosenConfigs.length && scenarioIds.length ? (
              <p className="text-xs text-slate-500">
                {formatDuration(estimate.data.loadMs)} of load plus about 5 s set-up per run ({formatDuration(estimate.data.overheadMs)}).
              </p>
            ) : null}
            {chosenConfigs.length === 0 || scenarioIds.length === 0 ? <p className="text-xs text-slate-500">Choose at least one pool config and one scenario.</p> : null}
            {estimate.isError ? <p className="text-xs text-red-700">{messageOf(estimate.error)}</p> : null}
            {presetId ? <Badge tone="violet">From preset {presetId}</Badge> : null}
            {!can('member') ? <Alert tone="warning">Viewers cannot start runs. Ask an admin for the member role.</Alert> : null}
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
