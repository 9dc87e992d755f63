'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Circle } from 'lucide-react';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert } from '~/components/ui/feedback';

// the managed lab target with its defaults: the one-click first step (same as the target form's default)
const LAB_TARGET = {
  kind: 'managed',
  name: 'Lab target',
  requestDefaults: { method: 'GET', path: '/work', query: { ms: '5' } },
} as const;

function Step({
  n,
  title,
  done,
  testId,
  children,
}: {
  n: number;
  title: string;
  done: boolean;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex items-start gap-3 py-3" data-testid={testId} data-done={done}>
      {done ? (
        <CheckCircle2 className="mt-0.5 size-5 text-emerald-600" aria-hidden />
      ) : (
        <Circle className="mt-0.5 size-5 text-slate-300" aria-hidden />
      )}
      <div className="flex-1">
        <div className="text-sm font-medium text-slate-900">
          {n}. {title} <span className="sr-only">{done ? '(done)' : '(not done)'}</span>
        </div>
        <div className="mt-1 text-sm text-slate-600">{children}</div>
      </div>
    </li>
  );
}

/** A new team's path to its first answer; each step's state comes from the team's own rows. */
export function OnboardingSteps() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const q = useQuery(trpc.onboarding.get.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.onboarding.get.queryKey() });
  const createTarget = useMutation(trpc.target.create.mutationOptions({ onSettled: refresh }));
  const addPresets = useMutation(
    trpc.onboarding.addPresets.mutationOptions({ onSettled: refresh }),
  );
  if (!q.data) return null;
  const o = q.data;
  const error = createTarget.error ?? addPresets.error;
  return (
    <Card className="mb-6" data-testid="onboarding">
      <CardHeader
        title="Get to your first answer"
        description="Three steps from an empty team to a comparison of pool configs, measured by the real worker."
      />
      <CardBody>
        {error ? (
          <Alert tone="error" className="mb-2">
            {messageOf(error)}
          </Alert>
        ) : null}
        <ol className="divide-y divide-slate-100">
          <Step
            n={1}
            title={
              o.labTarget && o.labTarget.runtime !== 'go'
                ? 'Create a managed target'
                : 'Create the lab target (Go on Postgres)'
            }
            done={Boolean(o.labTarget)}
            testId="onboarding-target"
          >
            {o.labTarget ? (
              <>
                Managed target <b>{o.labTarget.name}</b> ({o.labTarget.stack}): PoolBench starts it
                for every run with the pool config applied.
                {o.labTarget.name !== LAB_TARGET.name ? (
                  <span className="block" data-testid="onboarding-target-name">
                    The examples in docs/ci.md take the target from <code>$TARGET</code> (
                    <code>{LAB_TARGET.name}</code> in the lab): set it to{' '}
                    <code>{o.labTarget.name}</code>.
                  </span>
                ) : null}
              </>
            ) : can('admin') ? (
              <>
                The reference lab target: a Go program on the worker&apos;s Postgres, started for
                every run. Java, Bun, PHP and MariaDB are options of a target&apos;s environment.
                <br />
                <Button
                  size="sm"
                  className="mt-1"
                  loading={createTarget.isPending}
                  onClick={() => createTarget.mutate(LAB_TARGET)}
                >
                  Create the lab target
                </Button>
              </>
            ) : (
              'Ask an admin of this team to create it.'
            )}
          </Step>
          <Step
            n={2}
            title="Add the seed presets"
            done={o.presets.applied > 0}
            testId="onboarding-presets"
          >
            {o.presets.applied > 0 ? (
              o.presets.total === 1 && o.presets.applied === 1 ? (
                `Added the seed preset ${o.labTarget?.stack ?? 'this target'} can run, as scenarios with its pool configs.`
              ) : (
                `${o.presets.applied} of the ${o.presets.total} seed presets ${o.labTarget?.stack ?? 'this target'} can run added as scenarios with their pool configs.`
              )
            ) : o.labTarget && can('member') ? (
              <>
                <span className="block" data-testid="onboarding-presets-fit">
                  The seed presets {o.labTarget.stack} can run, with their pool configs on{' '}
                  {o.labTarget.name}
                  {o.presets.notForTarget > 0
                    ? ` (${o.presets.notForTarget} others need another runtime or database: they are on the Scenarios page)`
                    : ''}
                  .
                </span>
                <Button
                  size="sm"
                  className="mt-1"
                  loading={addPresets.isPending}
                  disabled={o.presets.total === 0}
                  onClick={() => addPresets.mutate({ targetId: o.labTarget!.id })}
                >
                  {o.presets.total === 1
                    ? 'Add the seed preset'
                    : `Add all ${o.presets.total} seed presets`}
                </Button>
              </>
            ) : (
              'Reproductions of known pool problems (cold start, per-request connections, …), ready to run once the lab target exists.'
            )}
          </Step>
          <Step
            n={3}
            title="Run the first experiment"
            done={Boolean(o.firstExperiment)}
            testId="onboarding-experiment"
          >
            {o.firstExperiment ? (
              <>
                First experiment:{' '}
                <a
                  className="text-brand-700 hover:underline"
                  href={`/experiments/${o.firstExperiment.id}`}
                >
                  {o.firstExperiment.name}
                </a>
              </>
            ) : o.labTarget && o.presets.applied > 0 && can('member') ? (
              <ButtonLink
                size="sm"
                className="mt-1"
                href={`/experiments/new?targetId=${o.labTarget.id}`}
              >
                Start an experiment
              </ButtonLink>
            ) : (
              'Two or more pool configs × a scenario, repeated and interleaved; the comparison follows.'
            )}
          </Step>
        </ol>
      </CardBody>
    </Card>
  );
}
