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

const LIVE_BACKSTOP_MS = 60_000;

/**
 * The run and its chart series in one request (`/api/runs/[id]/data`). A live run's status
 * changes arrive on its event stream, which reloads this; the page is also reloaded once a minute
 * while the run is live, in case the stream missed its end (a worker that died, Redis briefly
 * down). A finished run's page never changes.
 */
export function useRunPage(id: string) {
  return useQuery({
    queryKey: runPageKey(id),
    queryFn: () => fetchRunPage(id),
    refetchInterval: (q) =>
      q.state.data && !TERMINAL_RUN_STATUSES.includes(q.state.data.run.status as RunStatus)
        ? LIVE_BACKSTOP_MS
        : false,
  });
}
