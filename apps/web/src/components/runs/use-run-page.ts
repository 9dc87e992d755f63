'use client';

import { useQuery } from '@tanstack/react-query';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@poolbench/contracts';
import { fetchPageData } from '~/lib/page-data';
import type { RouterOutputs } from '~/lib/trpc/types';

export interface RunPage {
  run: RouterOutputs['run']['get'];
  series: RouterOutputs['run']['series'];
}

export const runPageKey = (id: string) => ['run-page', id] as const;

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
    queryFn: () => fetchPageData<RunPage>(`/api/runs/${encodeURIComponent(id)}/data`),
    refetchInterval: (q) =>
      q.state.data && !TERMINAL_RUN_STATUSES.includes(q.state.data.run.status as RunStatus)
        ? LIVE_BACKSTOP_MS
        : false,
  });
}
