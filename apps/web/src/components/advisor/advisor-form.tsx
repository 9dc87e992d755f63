'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { byIdName, Field, Input, Options, Select } from '~/components/ui/form';
import { TextField } from '~/components/ui/text-field';
import { RoleGated } from '~/components/ui/role-gated';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';

const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));

/**
 * The advisor's question: target, the pool config whose max pool size is searched, the scenario,
 * the range, the objective (an SLO at the scenario's rate, or the highest throughput) and the
 * budget. Problems come back from the server by field and show under it.
 */
export function AdvisorForm() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const sp = useSearchParams();
  const targets = useQuery(trpc.target.list.queryOptions());
  const scenarios = useQuery(trpc.scenario.list.queryOptions());
  const [targetId, setTargetId] = useState(sp.get('targetId') ?? '');
  const effectiveTarget = targetId || targets.data?.[0]?.id || '';
  const configs = useQuery({
    ...trpc.poolConfig.list.queryOptions({ targetId: effectiveTarget }),
    enabled: Boolean(effectiveTarget),
  });
  const [basePoolConfigId, setBase] = useState(sp.get('poolConfigId') ?? '');
  const [scenarioId, setScenarioId] = useState(sp.get('scenarioId') ?? '');
  const [min, setMin] = useState('1');
  const [max, setMax] = useState('32');
  const [kind, setKind] = useState<'slo' | 'max-throughput'>('slo');
  const [p99, setP99] = useState('50');
  const [errorPercent, setErrorPercent] = useState('0.1');
  const [budget, setBudget] = useState('24');
  const [repeats, setRepeats] = useState('3');
  const [name, setName] = useState('');
  const start = useMutation(
    trpc.advisor.start.mutationOptions({
      onSuccess: async (r) => {
        await qc.invalidateQueries();
        router.push(`/experiments/${r.experimentId}${r.enqueued ? '' : '?queue=unavailable'}`);
      },
    }),
  );
  const problems = problemsOf(start.error);
  const err = (...paths: string[]) => paths.map((p) => problems[p]).find(Boolean) ?? null;

  if (targets.isPending || scenarios.isPending) return <LoadingBlock rows={6} />;
  if (targets.isError) return <Alert tone="error">{messageOf(targets.error)}</Alert>;
  if (targets.data.length === 0)
    return (
      <Alert tone="info" title="No target yet">
        The advisor runs a pool config of a target.{' '}
        <Link className="font-medium underline" href="/targets/new">
          Add a target
        </Link>{' '}
        first.
      </Alert>
    );
  const configList = configs.data ?? [];
  const chosenBase = basePoolConfigId || configList[0]?.id || '';
  const scenarioList = scenarios.data ?? [];
  const rateScenarios = scenarioList.filter((s) => s.templateId === 'constant-arrival-rate');
  const chosenScenario =
    scenarioId || (kind === 'slo' ? rateScenarios[0]?.id : scenarioList[0]?.id) || '';

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    start.mutate({
      targetId: effectiveTarget,
      basePoolConfigId: chosenBase,
      scenarioId: chosenScenario,
      knob: 'maxConns',
      min: num(min),
      max: num(max),
      objective:
        kind === 'slo'
          ? { kind: 'slo', p99Ms: num(p99), errorRate: num(errorPercent) / 100 }
          : { kind: 'max-throughput' },
      budgetRuns: num(budget),
      repeatsPerSetting: num(repeats),
      ...(name.trim() ? { name: name.trim() } : {}),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="max-w-3xl space-y-6" aria-label="Advisor">
      {start.isError && !Object.keys(problems).length ? (
        <Alert tone="error">{messageOf(start.error)}</Alert>
      ) : null}
      <Card>
        <CardHeader title="What to search" />
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <Field label="Target" error={err('targetId')}>
            {(p) => (
              <Select
                {...p}
                value={effectiveTarget}
                onChange={(e) => {
                  setTargetId(e.target.value);
                  setBase('');
                }}
              >
                <Options items={targets.data} {...byIdName} />
              </Select>
            )}
          </Field>
          <Field
            label="Pool config"
            help="Its max pool size is searched; strategy, timeouts and instances stay as they are."
            error={err('basePoolConfigId')}
          >
            {(p) => (
              <Select {...p} value={chosenBase} onChange={(e) => setBase(e.target.value)}>
                {configList.length === 0 ? (
                  <option value="">No pool config on this target</option>
                ) : null}
                <Options items={configList} {...byIdName} />
              </Select>
            )}
          </Field>
          <TextField
            label="Smallest max pool size"
            error={err('min')}
            value={min}
            onValue={setMin}
            inputMode="numeric"
          />
          <TextField
            label="Largest max pool size"
            error={err('max')}
            value={max}
            onValue={setMax}
            inputMode="numeric"
          />
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Objective" />
        <CardBody className="space-y-4">
          <fieldset className="flex flex-wrap gap-6 text-sm">
            <legend className="sr-only">Objective</legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="objective"
                checked={kind === 'slo'}
                onChange={() => setKind('slo')}
              />
              The smallest pool that meets an SLO
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="objective"
                checked={kind === 'max-throughput'}
                onChange={() => setKind('max-throughput')}
              />
              The highest throughput
            </label>
          </fieldset>
          <Field
            label="Scenario"
            help={
              kind === 'slo'
                ? 'An SLO holds at a request rate: a constant-arrival-rate scenario, whose rate is the one the SLO is checked at.'
                : 'Any scenario; a closed model (VUs) shows the throughput ceiling best.'
            }
            error={err('scenarioId')}
          >
            {(p) => (
              <Select {...p} value={chosenScenario} onChange={(e) => setScenarioId(e.target.value)}>
                {(kind === 'slo' ? rateScenarios : scenarioList).length === 0 ? (
                  <option value="">
                    No {kind === 'slo' ? 'constant-arrival-rate ' : ''}scenario yet
                  </option>
                ) : null}
                <Options items={kind === 'slo' ? rateScenarios : scenarioList} {...byIdName} />
              </Select>
            )}
          </Field>
          {kind === 'slo' ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label="p99 latency at most (ms)"
                error={err('objective.p99Ms')}
                value={p99}
                onValue={setP99}
                inputMode="decimal"
              />
              <TextField
                label="Errors at most (%)"
                error={err('objective.errorRate')}
                value={errorPercent}
                onValue={setErrorPercent}
                inputMode="decimal"
              />
            </div>
          ) : null}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Budget" />
        <CardBody className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Runs at most"
            help="The search never plans past it."
            error={err('budgetRuns')}
            value={budget}
            onValue={setBudget}
            inputMode="numeric"
          />
          <TextField
            label="Runs per setting and step"
            error={err('repeatsPerSetting')}
            value={repeats}
            onValue={setRepeats}
            inputMode="numeric"
          />
          <Field label="Name" optional error={err('name')}>
            {(p) => <Input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
        </CardBody>
      </Card>
      <RoleGated min="member" what="start runs" label="Start the advisor">
        <Button type="submit" loading={start.isPending}>
          Start the advisor
        </Button>
      </RoleGated>
    </form>
  );
}
