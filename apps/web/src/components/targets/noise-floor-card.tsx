'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Scale } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { byIdName, Field, NumberInput, Options, Select } from '~/components/ui/form';
import { RoleGated } from '~/components/ui/role-gated';
import { Table, Td } from '~/components/ui/table';
import { formatNoiseFloor } from '~/components/compare/comparison-table';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';

/** The metrics the card shows of each floor (all are stored and used by comparisons). */
const SHOWN = [
  { key: 'p50Ms', label: 'p50', unit: 'ms' },
  { key: 'p95Ms', label: 'p95', unit: 'ms' },
  { key: 'p99Ms', label: 'p99', unit: 'ms' },
  { key: 'rps', label: 'req/s', unit: 'req/s' },
  { key: 'errorRate', label: 'errors', unit: '%' },
] as const;

/**
 * A target's A/A calibrations: per scenario the latest measured noise floor (what comparisons on
 * this target × scenario use as their practical floor where it is larger than the default), the
 * calibrations still running, and for members the form that starts one.
 */
export function NoiseFloorCard({
  targetId,
  poolConfigs,
}: {
  targetId: string;
  poolConfigs: Array<{ id: string; name: string }>;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const list = useQuery({
    ...trpc.calibration.list.queryOptions({ targetId }),
    // a calibration's floor is stored after its last run ended: ask again while one runs, and
    // (less often) while a completed one still has no floor
    refetchInterval: (q) => {
      const pending = q.state.data?.pending ?? [];
      if (pending.some((p) => p.status === 'queued' || p.status === 'running')) return 3000;
      return pending.some((p) => p.status === 'completed') ? 10_000 : false;
    },
  });
  const scenarios = useQuery(trpc.scenario.list.queryOptions());
  const [poolConfigId, setPoolConfigId] = useState('');
  const [scenarioId, setScenarioId] = useState('');
  const [runsPerSide, setRunsPerSide] = useState<number | undefined>(8);
  const start = useMutation(
    trpc.calibration.start.mutationOptions({
      onSuccess: async (r) => {
        await qc.invalidateQueries({ queryKey: trpc.calibration.list.queryKey() });
        router.push(`/experiments/${r.experimentId}${r.enqueued ? '' : '?queue=unavailable'}`);
      },
    }),
  );
  const problems = problemsOf(start.error);
  const chosenConfig = poolConfigId || poolConfigs[0]?.id || '';
  const chosenScenario = scenarioId || scenarios.data?.[0]?.id || '';

  return (
    <Card>
      <CardHeader
        title="Noise floor"
        description="An A/A calibration runs one pool config against itself, in pairs whose two sides take turns to go first, and measures how different identical configs look on this machine. Comparisons on the same target and scenario then refuse to call smaller changes better or worse."
      />
      <CardBody className="space-y-4 text-sm">
        {list.isPending ? (
          <LoadingBlock rows={2} />
        ) : list.isError ? (
          <Alert tone="error">{messageOf(list.error)}</Alert>
        ) : (
          <>
            {list.data.floors.length === 0 ? (
              <p className="text-slate-500" data-testid="no-noise-floor">
                No calibration yet: comparisons use each metric&apos;s default floor (5 %, or its
                own unit for error rate, connection set-up and pool wait).
              </p>
            ) : (
              <Table
                head={[
                  'Scenario',
                  ...SHOWN.map((m) => ({ label: m.label, className: 'text-right', key: m.key })),
                ]}
                bodyTestId="noise-floors"
              >
                {list.data.floors.map((f) => (
                  <tr key={f.experimentId}>
                    <Td>
                      <div className="font-medium text-slate-800">{f.scenarioName}</div>
                      <div className="text-xs text-slate-500">
                        {f.poolConfigName} ·{' '}
                        <Link
                          className="text-brand-700 hover:underline"
                          href={`/experiments/${f.experimentId}`}
                        >
                          {f.runsPerSide} vs {f.runsPerSide} runs
                        </Link>{' '}
                        · {f.createdAt.toISOString().slice(0, 10)}
                      </div>
                    </Td>
                    {SHOWN.map((m) => {
                      const v = f.metrics.find((x) => x.key === m.key);
                      return (
                        <Td key={m.key} className="whitespace-nowrap text-right tabular-nums">
                          {v ? `±${formatNoiseFloor(v, m.unit)}` : '—'}
                        </Td>
                      );
                    })}
                  </tr>
                ))}
              </Table>
            )}
            {list.data.pending.length ? (
              <ul className="space-y-1">
                {list.data.pending.map((p) => (
                  <li key={p.experimentId} className="flex items-center gap-2">
                    <Badge tone="blue">{p.status}</Badge>
                    <Link
                      className="text-brand-700 hover:underline"
                      href={`/experiments/${p.experimentId}`}
                    >
                      {p.name}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </>
        )}
        <RoleGated
          min="member"
          what="start calibrations"
          variant="secondary"
          size="sm"
          label={
            <>
              <Scale className="size-4" /> Calibrate
            </>
          }
        >
          {poolConfigs.length === 0 ? (
            <p className="text-xs text-slate-500">Add a pool config to calibrate with it.</p>
          ) : (
            <form
              className="grid gap-3 sm:grid-cols-3 sm:items-start"
              aria-label="Start an A/A calibration"
              onSubmit={(e) => {
                e.preventDefault();
                start.mutate({
                  targetId,
                  poolConfigId: chosenConfig,
                  scenarioId: chosenScenario,
                  runsPerSide,
                });
              }}
            >
              <Field label="Pool config" error={problems.poolConfigId}>
                {(p) => (
                  <Select
                    {...p}
                    value={chosenConfig}
                    onChange={(e) => setPoolConfigId(e.target.value)}
                  >
                    <Options items={poolConfigs} {...byIdName} />
                  </Select>
                )}
              </Field>
              <Field label="Scenario" error={problems.scenarioId}>
                {(p) => (
                  <Select
                    {...p}
                    value={chosenScenario}
                    onChange={(e) => setScenarioId(e.target.value)}
                  >
                    <Options items={scenarios.data ?? []} {...byIdName} />
                  </Select>
                )}
              </Field>
              <Field
                label="Runs per side"
                help="5 to 25; the same count as your comparisons use"
                error={problems.runsPerSide ?? problems.repeats}
              >
                {(p) => (
                  // no min/max here: the server's limit comes back at the field, with its reason
                  <NumberInput {...p} value={runsPerSide} onValue={setRunsPerSide} />
                )}
              </Field>
              <Button
                type="submit"
                size="sm"
                className="justify-self-start sm:col-span-3"
                loading={start.isPending}
              >
                <Scale className="size-4" /> Calibrate
                {runsPerSide ? ` (${2 * runsPerSide} runs)` : ''}
              </Button>
            </form>
          )}
          {start.error && Object.keys(problems).length === 0 ? (
            <Alert tone="error" className="mt-3">
              {messageOf(start.error)}
            </Alert>
          ) : null}
        </RoleGated>
      </CardBody>
    </Card>
  );
}
