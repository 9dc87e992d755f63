'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { Badge, type BadgeTone } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';
import { ErrorAlert } from '~/components/ui/query-state';
import { RoleGated } from '~/components/ui/role-gated';
import { useTRPC } from '~/lib/trpc/react';
import { AdvisorCharts } from './advisor-charts';
import { useQuery } from '@tanstack/react-query';
import { runtimeOf } from '@poolbench/scenarios';
import { resolveLabEnvironment, type Runtime } from '@poolbench/contracts';
import type { AdvisorSpecView, AdvisorStateView } from './advisor-types';

/** maxConns as each runtime calls it in its own configuration (docs/runtimes.md); Go's lab target takes maxConns itself. */
const KNOB_ON: Record<Runtime, string | null> = {
  go: null,
  'java-hikari': "HikariCP's maximumPoolSize",
  bun: "Bun.sql's max",
  'php-fpm': "PHP-FPM's pm.max_children",
};

/** A run this close to the SLO's p99 (as a share of it) may break it on a busier day. */
const NEAR_SLO = 0.75;
/** Past this error rate a setting's latency mixes failed requests in: Little's law is not checked. */
const LITTLE_MAX_ERRORS = 0.01;

const VERDICT: Record<string, { label: string; tone: BadgeTone }> = {
  meets: { label: 'meets', tone: 'green' },
  fails: { label: 'fails', tone: 'red' },
  'in-doubt': { label: 'in doubt', tone: 'amber' },
  planned: { label: 'planned', tone: 'neutral' },
};

const STATUS: Record<AdvisorStateView['status'], { label: string; tone: BadgeTone }> = {
  running: { label: 'searching', tone: 'blue' },
  decided: { label: 'decided', tone: 'green' },
  'no-setting-meets': { label: 'no setting meets the SLO', tone: 'red' },
  'budget-exhausted': { label: 'budget spent before a decision', tone: 'amber' },
  stopped: { label: 'stopped', tone: 'neutral' },
};

const n = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined ? '–' : v.toFixed(digits);
const mib = (v: number | null | undefined) =>
  v === null || v === undefined ? '–' : `${(v / 1048576).toFixed(0)} MiB`;

export function objectiveText(spec: AdvisorSpecView): string {
  return spec.objective.kind === 'slo'
    ? `p99 ≤ ${spec.objective.p99Ms} ms and errors ≤ ${(spec.objective.errorRate * 100).toFixed(2)} % at ${spec.objective.rate} req/s`
    : 'the highest throughput';
}

/**
 * An advisor experiment's answer: the recommendation with its evidence, the charts of latency and
 * throughput against the setting (with the SLO and the USL fit), each setting's verdict and cost,
 * and saving a setting as a pool config.
 */
export function AdvisorCard({
  experimentId,
  spec,
  state,
  targetId,
}: {
  experimentId: string;
  spec: AdvisorSpecView;
  state: AdvisorStateView | null;
  targetId: string;
}) {
  const trpc = useTRPC();
  // the runtime that served the searched config: the target's, unless the config overrides it
  const target = useQuery(trpc.target.get.queryOptions({ id: targetId }));
  const ownName = target.data
    ? KNOB_ON[
        runtimeOf(
          resolveLabEnvironment(
            target.data.managed?.environment,
            spec.base.environment ?? undefined,
          ),
        )
      ]
    : null;
  const slo = spec.objective.kind === 'slo' ? spec.objective : null;
  const chosen = state?.settings.find((s) => s.setting === state.recommended);
  const nearSlo =
    slo && chosen && typeof chosen.p99High === 'number' && chosen.p99High >= NEAR_SLO * slo.p99Ms
      ? chosen.p99High
      : null;
  const qc = useQueryClient();
  const save = useMutation(
    trpc.advisor.savePoolConfig.mutationOptions({
      onSuccess: () => qc.invalidateQueries(),
    }),
  );
  const status = state ? STATUS[state.status] : STATUS.running;
  return (
    <Card className="mb-6" data-testid="advisor-card">
      <CardHeader
        title={`Advisor: ${spec.knob}${ownName ? ` (${ownName})` : ''} of “${spec.basePoolConfigName}” from ${spec.min} to ${spec.max}`}
        description={`Objective: ${objectiveText(spec)}. Budget ${spec.budgetRuns} runs, ${spec.repeatsPerSetting} per setting and step. Each setting's runs are ordinary runs, in counterbalanced rounds and comparable.`}
        actions={<Badge tone={status.tone}>{status.label}</Badge>}
      />
      <CardBody className="space-y-4">
        {!state ? (
          <p className="text-sm text-slate-500">The first step is queued.</p>
        ) : (
          <>
            {state.recommended !== null ? (
              <p
                className="text-lg font-semibold text-slate-900"
                data-testid="advisor-recommendation"
              >
                Recommended: {spec.knob} {state.recommended}
                {ownName ? (
                  <span className="block text-sm font-normal text-slate-600">
                    that is, {ownName} = {state.recommended}
                  </span>
                ) : null}
              </p>
            ) : null}
            {nearSlo !== null && slo ? (
              <Alert tone="warning" title="Close to the SLO">
                <span data-testid="advisor-near-slo">
                  A run of {spec.knob} {state.recommended} reached p99 {n(nearSlo)} ms, within{' '}
                  {Math.round((1 - NEAR_SLO) * 100)} % of the {slo.p99Ms} ms the SLO allows: a
                  busier day may break it. One setting more ({spec.knob}{' '}
                  {(state.recommended ?? 0) + 1}) or more repeats would leave margin.
                </span>
              </Alert>
            ) : null}
            <p className="text-sm text-slate-700" data-testid="advisor-summary">
              {state.summary}
            </p>
            {state.evidence.length > 0 ? (
              <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
                {state.evidence.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
            {state.inDoubt && state.inDoubt.length > 0 ? (
              <Alert tone="warning" title="Still in doubt">
                {state.inDoubt
                  .map(
                    (d) =>
                      `${spec.knob} ${d.setting}: about ${d.runsToSettle} more runs would settle it`,
                  )
                  .join('; ')}
                .
              </Alert>
            ) : null}
            <p className="text-xs text-slate-500">
              Runs used: {state.runsUsed} of {state.budgetRuns}.
            </p>
            <AdvisorCharts
              state={state}
              knob={spec.knob}
              p99LimitMs={spec.objective.kind === 'slo' ? spec.objective.p99Ms : null}
              recommended={state.recommended}
            />
            <div className="overflow-x-auto">
              <table className="min-w-full text-sm" data-testid="advisor-settings">
                <caption className="sr-only">Each setting the advisor ran</caption>
                <thead>
                  <tr className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                    <th scope="col" className="px-3 py-2">
                      {spec.knob}
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Runs
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Verdict
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      p99 ms (range)
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      req/s
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Errors (median)
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      DB conns (peak)
                    </th>
                    <th scope="col" className="px-3 py-2 text-right">
                      Memory (peak)
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Little’s law
                    </th>
                    <th scope="col" className="px-3 py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {state.settings.map((s) => {
                    const v = VERDICT[s.verdict] ?? { label: s.verdict, tone: 'neutral' as const };
                    const little = state.littlesLaw?.find((l) => l.setting === s.setting);
                    return (
                      <tr
                        key={s.setting}
                        className={s.setting === state.recommended ? 'bg-emerald-50/60' : undefined}
                      >
                        <th scope="row" className="px-3 py-2 text-left font-medium tabular-nums">
                          {s.setting}
                        </th>
                        <td className="px-3 py-2 tabular-nums">
                          {s.runs}
                          {spec.objective.kind === 'slo' && s.runs > 0 ? (
                            <span className="text-slate-500"> ({s.meets} met)</span>
                          ) : null}
                        </td>
                        <td className="px-3 py-2">
                          <Badge tone={v.tone}>{v.label}</Badge>
                          {s.reasons && s.reasons.length > 0 ? (
                            <span className="mt-0.5 block text-xs text-slate-500">
                              {/* one failing run's numbers, not the medians of the columns */}
                              {s.runs - s.meets} of {s.runs} {s.runs === 1 ? 'run' : 'runs'} failed,
                              e.g. {s.reasons.join('; ')}
                            </span>
                          ) : null}
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums">
                          {n(s.p99Median)}
                          <span className="text-xs text-slate-500">
                            {' '}
                            ({n(s.p99Low)}–{n(s.p99High)})
                          </span>
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums">{n(s.rpsMedian)}</td>
                        <td className="px-3 py-2 text-right tabular-nums">
                          {s.errorRateMedian === null || s.errorRateMedian === undefined
                            ? '–'
                            : `${(s.errorRateMedian * 100).toFixed(2)} %`}
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums">
                          {n(s.dbConnectionsPeak, 0)}
                        </td>
                        <td className="px-3 py-2 text-right tabular-nums">{mib(s.rssPeakBytes)}</td>
                        <td className="px-3 py-2 text-xs">
                          {typeof s.errorRateMedian === 'number' &&
                          s.errorRateMedian > LITTLE_MAX_ERRORS
                            ? 'not checked: requests failed, so latency is not the time a connection was held'
                            : little
                              ? `${little.agrees ? 'agrees' : 'differs'}: ${n(little.observed, 2)} in use vs ${n(little.expected, 2)} expected`
                              : '–'}
                        </td>
                        <td className="px-3 py-2 text-right">
                          {s.runs > 0 ? (
                            <RoleGated
                              min="member"
                              what="save pool configs"
                              label="Save as pool config"
                              variant="secondary"
                              size="sm"
                            >
                              <Button
                                variant="secondary"
                                size="sm"
                                loading={save.isPending && save.variables?.setting === s.setting}
                                onClick={() => save.mutate({ experimentId, setting: s.setting })}
                              >
                                Save as pool config
                              </Button>
                            </RoleGated>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {state.usl ? (
              <p className="text-xs text-slate-600" data-testid="advisor-usl">
                Universal Scalability Law fit of throughput: σ (contention){' '}
                {state.usl.sigma.toFixed(3)}, κ (coherency) {state.usl.kappa.toFixed(4)}
                {state.usl.peakN !== null
                  ? `, peak at N* = ${state.usl.peakN.toFixed(1)}`
                  : ', no peak'}
                {state.usl.rSquared !== null ? `, R² ${state.usl.rSquared.toFixed(2)}` : ''}.
                {slo ? (
                  <span className="block" data-testid="advisor-usl-caveat">
                    At a fixed rate of {slo.rate} req/s throughput flattens at the offered rate once
                    the pool keeps up, so this fit describes the offered load, not the target&apos;s
                    capacity{state.usl.peakN !== null ? ': its peak is no size to aim for' : ''}.
                    For capacity, ask for the highest throughput with a closed-model scenario.
                  </span>
                ) : null}
              </p>
            ) : state.uslNote ? (
              <p className="text-xs text-slate-500">{state.uslNote}</p>
            ) : null}
            <ErrorAlert error={save.error} />
            {save.isSuccess ? (
              <Alert tone="success" title="Saved">
                Pool config “{save.data.name}” is saved:{' '}
                <Link className="font-medium underline" href={`/targets/${save.data.targetId}`}>
                  see the target’s pool configs
                </Link>
                .
              </Alert>
            ) : null}
          </>
        )}
      </CardBody>
    </Card>
  );
}
