'use client';

import { useEffect, useRef, useState } from 'react';
import { TERMINAL_RUN_STATUSES, type RunStatus, type SeriesPoint } from '@poolbench/scenarios';

export interface LiveState {
  points: SeriesPoint[];
  status: RunStatus | null;
  connected: boolean;
  lastEventAt: number | null;
  downsampled: boolean;
  error: string | null;
  message: string | null;
}

/**
 * The run's chart points: a snapshot from Postgres, then live seconds over SSE while the run is
 * active (the server closes the stream on a terminal status). Seconds are merged by number, so a
 * point sent twice (snapshot and live) appears once.
 */
export function useRunSeries(runId: string, live: boolean, onStatus: (s: RunStatus) => void): LiveState {
  const [state, setState] = useState<LiveState>({ points: [], status: null, connected: false, lastEventAt: null, downsampled: false, error: null, message: null });
  const onStatusRef = useRef(onStatus);
  onStatusRef.current = onStatus;

  useEffect(() => {
    let closed = false;
    const bySecond = new Map<number, SeriesPoint>();
    const publish = (patch: Partial<LiveState>) => {
      if (closed) return;
      setState((s) => ({ ...s, ...patch, points: [...bySecond.values()].sort((a, b) => a.second - b.second), lastEventAt: Date.now() }));
    };
    const es = new EventSource(`/api/runs/${runId}/events`);
    es.addEventListener('open', () => publish({ connected: true, error: null }));
    es.addEventListener('snapshot', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { status: RunStatus | null; points: SeriesPoint[]; downsampled: boolean };
      for (const p of data.points) bySecond.set(p.second, p);
      publish({ status: data.status, downsampled: data.downsampled });
      if (data.status && TERMINAL_RUN_STATUSES.includes(data.status)) es.close();
    });
    es.addEventListener('second', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { point: SeriesPoint };
      bySecond.set(data.point.second, data.point);
      publish({});
    });
    es.addEventListener('status', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { status: RunStatus; message?: string };
      publish({ status: data.status, message: data.message ?? null });
      onStatusRef.current(data.status);
      if (TERMINAL_RUN_STATUSES.includes(data.status)) es.close();
    });
    es.addEventListener('heartbeat', () => publish({}));
    es.addEventListener('error', () => {
      // EventSource reconnects by itself; after a terminal status the stream is closed on purpose.
      if (es.readyState === EventSource.CLOSED) publish({ connected: false });
      else publish({ connected: false, error: 'Live connection lost, reconnecting…' });
    });
    return () => {
      closed = true;
      es.close();
    };
    // live toggles only once (active -> finished); a finished run still loads its snapshot once
  }, [runId, live]);
  return state;
}
