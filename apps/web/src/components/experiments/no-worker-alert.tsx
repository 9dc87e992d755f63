'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { Alert } from '~/components/ui/feedback';

/**
 * Shown while no worker is online (none with a recent heartbeat): a launch is accepted and its
 * runs are stored as queued, but nothing runs them until a worker starts, so say so where the
 * experiment is launched and watched, with the commands that start one.
 */
export function NoWorkerAlert({
  when,
  className,
}: {
  /** before the launch (the form) or after it (the experiment's page) */
  when: 'launch' | 'schedule' | 'queued';
  className?: string;
}) {
  const trpc = useTRPC();
  const fleet = useQuery({ ...trpc.team.fleetLimits.queryOptions(), refetchInterval: 5_000 });
  if (fleet.data?.onlineWorkers !== 0) return null;
  const what =
    when === 'launch'
      ? 'You can launch, but its runs wait as queued until one is.'
      : when === 'schedule'
        ? 'The schedule is saved, but its firings wait as queued until one is.'
        : 'These runs wait as queued and start by themselves once one is.';
  return (
    <Alert tone="warning" title="No worker is online" className={className}>
      <span data-testid="no-worker-alert">
        Nothing runs without a worker. {what} On the machine of this installation,{' '}
        <Cmd>make up</Cmd> starts the web app and a worker (<Cmd>scripts/stack.sh start worker</Cmd>{' '}
        only the worker); with Docker Compose or Helm, start the worker service (docs/deploy.md).
      </span>
    </Alert>
  );
}

const Cmd = ({ children }: { children: string }) => (
  <code className="rounded bg-amber-100 px-1 font-mono">{children}</code>
);
