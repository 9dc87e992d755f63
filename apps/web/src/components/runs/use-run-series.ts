'use client';

import { useEffect, useRef, useState } from 'react';
import { TERMINAL_RUN_STATUSES, type RunStatus, type SeriesPoint } from '@poolbench/contracts';

export interface LiveState {
  points: SeriesPoint[];
  connected: boolean;
  downsampled: boolean;
  error: string | null;
}

/**
 * The run's chart points. `initial` is what the page loaded (`useRunPage`); until it is there
 * nothing is shown. A finished run's points are exactly those. A live run's are merged with the
 * live seconds of its event stream (snapshot first; the server closes the stream on a terminal
 * status), by second number, so a point sent twice appears once. `points` changes identity only
 * when a second arrives, so the memoised charts do not redraw on connection or status events.
 */
export function useRunSeries(
  runId: string,
  onStatus: (s: RunStatus) => void,
  initial: {
    points: SeriesPoint[];
    downsampled: boolean;
    /** the run's status when the page loaded */
    status: RunStatus;
    live: boolean;
  } | null,
): LiveState {
  const [state, setState] = useState<LiveState>({
    points: [],
    connected: false,
    downsampled: false,
    error: null,
  });
  const onStatusRef = useRef(onStatus);
  onStatusRef.current = onStatus;

  const loaded = initial !== null;
  const live = initial?.live ?? false;
  const initialRef = useRef(initial);
  initialRef.current = initial;

  useEffect(() => {
    const start = initialRef.current;
    if (!start) return;
    let closed = false;
    const bySecond = new Map<number, SeriesPoint>(start.points.map((p) => [p.second, p]));
    const publish = (patch: Partial<LiveState>) => {
      if (!closed) setState((s) => ({ ...s, ...patch }));
    };
    const publishPoints = (patch: Partial<LiveState> = {}) =>
      publish({ ...patch, points: [...bySecond.values()].sort((a, b) => a.second - b.second) });
    publishPoints({ downsampled: start.downsampled, connected: false, error: null });
    if (!start.live)
      return () => {
        closed = true;
      };
    const es = new EventSource(`/api/runs/${runId}/events`);
    es.addEventListener('open', () => publish({ connected: true, error: null }));
    es.addEventListener('snapshot', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as {
        status: RunStatus | null;
        points: SeriesPoint[];
        downsampled: boolean;
      };
      for (const p of data.points) bySecond.set(p.second, p);
      publishPoints({ downsampled: data.downsampled });
      // the run moved on between the page load and the stream (or while the stream was down):
      // the page reloads to show it
      if (data.status && data.status !== initialRef.current?.status)
        onStatusRef.current(data.status);
      if (data.status && TERMINAL_RUN_STATUSES.includes(data.status)) es.close();
    });
    es.addEventListener('second', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { point: SeriesPoint };
      bySecond.set(data.point.second, data.point);
      publishPoints();
    });
    es.addEventListener('status', (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { status: RunStatus };
      onStatusRef.current(data.status);
      if (TERMINAL_RUN_STATUSES.includes(data.status)) es.close();
    });
    es.addEventListener('error', () => {
      // EventSource reconnects by itself; after a terminal status the stream is closed on purpose.
      if (es.readyState === EventSource.CLOSED) publish({ connected: false });
      else publish({ connected: false, error: 'Live connection lost, reconnecting…' });
    });
    return () => {
      closed = true;
      es.close();
    };
    // restarts from the page's data when it first arrives and when the run ends; a live run's
    // slower page polls do not reopen the stream
  }, [runId, loaded, live]);
  return state;
}
