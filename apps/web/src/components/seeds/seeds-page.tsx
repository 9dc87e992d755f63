'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Sprout } from 'lucide-react';
import Link from 'next/link';
import { useTRPC } from '~/lib/trpc/react';
import { plural } from '~/lib/plural';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { RoleGated } from '~/components/ui/role-gated';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, EmptyState } from '~/components/ui/feedback';
import { ErrorAlert, QueryState } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { ClaimVerdicts } from './claim-verdicts';
import { SEED_ADVISOR_QUESTIONS } from '@poolbench/scenarios';
import { useRouter } from 'next/navigation';

export function SeedsPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const overview = useQuery({ ...trpc.seeds.overview.queryOptions(), refetchInterval: 5000 });
  const reproduce = useMutation(
    trpc.seeds.reproduce.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.seeds.overview.queryKey() }),
    }),
  );
  const router = useRouter();
  const advise = useMutation(
    trpc.seeds.advise.mutationOptions({
      onSuccess: async (r) => {
        await qc.invalidateQueries();
        router.push(`/experiments/${r.experimentId}${r.enqueued ? '' : '?queue=unavailable'}`);
      },
    }),
  );
  const data = overview.data;
  const minutes = data
    ? Math.round(data.presets.reduce((ms, p) => ms + p.estimatedMs, 0) / 60_000)
    : null;
  const action = (
    <RoleGated
      min="member"
      what="start runs"
      label={
        <>
          <Sprout className="size-4" /> Reproduce
        </>
      }
    >
      <Button loading={reproduce.isPending} onClick={() => reproduce.mutate({})}>
        <Sprout className="size-4" /> Reproduce
      </Button>
    </RoleGated>
  );
  const latest = data?.latest ?? null;
  return (
    <>
      <PageHeader
        title="Seeds"
        description={`The five write-ups PoolBench was built from, each a preset whose claims are hypotheses decided by the product. Reproduce launches every seed experiment through the queue, 5 counterbalanced repeats (up to ~${minutes ?? '…'} min of load), like make seeds.`}
        actions={action}
      />
      <ErrorAlert
        error={reproduce.error}
        className="mb-4"
        title="Could not start the reproduction"
      />
      {reproduce.data ? (
        <Alert
          tone="success"
          className="mb-4"
          title={`Reproduction ${reproduce.data.reproductionId} started`}
        >
          {reproduce.data.experimentIds.length} experiments queued
          {reproduce.data.enqueued ? '' : ' (the queue is unavailable: they start when it is back)'}
          . Verdicts appear below when each experiment ends.
        </Alert>
      ) : null}
      <QueryState query={overview} />
      {data && !latest ? (
        <div className="mb-6">
          <EmptyState icon={Sprout} title="No reproduction yet" action={action}>
            Nothing has reproduced the seeds for this team yet. Reproduce runs them here;{' '}
            <code>make seeds</code> does the same from a shell.
          </EmptyState>
        </div>
      ) : null}
      {latest ? (
        <p className="mb-4 text-sm text-slate-600" data-testid="seeds-reproduction">
          Latest reproduction: <span className="font-mono">{latest.reproductionId}</span>
        </p>
      ) : null}
      <div className="space-y-6">
        {data?.presets.map((p) => {
          const exp = latest?.experiments.find((e) => e.presetId === p.id) ?? null;
          return (
            <Card key={p.id} data-testid={`seed-${p.id}`}>
              <CardHeader
                title={
                  <span className="flex flex-wrap items-center gap-2">
                    <Badge tone="violet">seed {p.seed}</Badge> {p.title}
                  </span>
                }
                description={p.description}
              />
              <CardBody className="space-y-3">
                <div className="flex flex-wrap items-center gap-3 text-xs text-slate-500">
                  <span>
                    {plural(p.claims.length, 'claim')} · {plural(p.runs, 'run')} at scale{' '}
                    {p.seedsScale}
                  </span>
                  {exp ? (
                    <Link
                      className="text-brand-700 hover:underline"
                      href={`/experiments/${exp.experimentId}`}
                    >
                      experiment {exp.experimentId} ({exp.status})
                    </Link>
                  ) : (
                    <span>not reproduced yet</span>
                  )}
                </div>
                <ClaimVerdicts claims={p.claims} results={exp?.claims ?? null} />
                {SEED_ADVISOR_QUESTIONS.some((q) => q.presetId === p.id) ? (
                  <div
                    className="border-t border-slate-100 pt-3"
                    data-testid={`seed-advisor-${p.seed}`}
                  >
                    <p className="mb-2 text-sm font-medium text-slate-800">
                      Ask the advisor (searches max pool size by experiment, docs/advisor.md)
                    </p>
                    <ul className="space-y-2">
                      {SEED_ADVISOR_QUESTIONS.filter((q) => q.presetId === p.id).map((q) => (
                        <li key={q.id} className="flex flex-wrap items-center gap-3 text-sm">
                          <RoleGated
                            min="member"
                            what="start runs"
                            label="Ask"
                            variant="secondary"
                            size="sm"
                          >
                            <Button
                              variant="secondary"
                              size="sm"
                              loading={advise.isPending && advise.variables?.question === q.id}
                              onClick={() => advise.mutate({ question: q.id })}
                              aria-label={`Ask the advisor: ${q.title}`}
                            >
                              Ask
                            </Button>
                          </RoleGated>
                          <span className="text-slate-700">
                            {q.title} (max pool size {q.min}–{q.max}, at most {q.budgetRuns} runs)
                          </span>
                        </li>
                      ))}
                    </ul>
                    <ErrorAlert error={advise.error} className="mt-2" />
                  </div>
                ) : null}
              </CardBody>
            </Card>
          );
        })}
      </div>
    </>
  );
}
