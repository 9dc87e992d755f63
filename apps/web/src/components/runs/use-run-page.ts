'use client';

import { useQuery } from '@tanstack/react-query';
import superjson from 'superjson';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/scenarios';
import type { RouterOutputs } from '~/lib/trpc/types';

export interface RunPage {
  run: RouterOutputs['run']['get'];
  series: RouterOutputs['run']['series'];
}

/** A failed page load, shaped like a tRPC error where the run page reads the code. */
export class RunPageError extends Error {
  constructor(
    message: string,
    readonly data: { code: 'NOT_FOUND' | 'UNAUTHORIZED' | 'BAD_REQUEST' | 'INTERNAL_SERVER_ERROR' },
  ) {
    super(message);
  }
}

const CODES = { 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 400: 'BAD_REQUEST' } as const;

export const runPageKey = (id: string) => ['run-page', id] as const;

async function fetchRunPage(id: string): Promise<RunPage> {
  // the browser revalidates with the ETag: a finished run's page comes back 304 from its cache
  const res = await fetch(`/api/runs/${encodeURIComponent(id)}/data`, { cache: 'no-cache' });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new RunPageError(body?.detail ?? `HTTP ${res.status}`, {
      code: CODES[res.status as keyof typeof CODES] ?? 'INTERNAL_SERVER_ERROR',
    });
  }
  return superjson.deserialize<RunPage>(
    (await res.json()) as Parameters<typeof superjson.deserialize>[0],
  );
}

/**
 * The run and its chart series in one request (`/api/runs/[id]/data`). A live run's page is
 * polled slowly as a backstop for its event stream; a finished run's never changes.
 */
export function useRunPage(id: string) {
  return useQuery({
    queryKey: runPageKey(id),
    queryFn: () => fetchRunPage(id),
    retry: (n, e) =>
      !(e instanceof RunPageError && e.data.code !== 'INTERNAL_SERVER_ERROR') && n < 2,
    refetchInterval: (q) =>
      q.state.data && !TERMINAL_RUN_STATUSES.includes(q.state.data.run.status as RunStatus)
        ? 5000
        : false,
  });
}
