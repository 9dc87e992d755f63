import type { Db } from '@poolbench/db';
import { listenRunEvents, type PubSubHub } from '@poolbench/queue';
import { TERMINAL_RUN_STATUSES, type LiveEvent, type RunStatus } from '@poolbench/contracts';
import { getRunSeries } from './run-series';

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();
const frame = (event: string, data: unknown) =>
  encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * Server-sent events for one run: first a `snapshot` with the stored points (Postgres is the
 * source of truth), then every live event from the run's Redis channel, heard through the
 * process's shared subscriber (one subscription per run however many viewers it has).
 * It subscribes before reading the snapshot so nothing falls between the two (the client drops
 * seconds it already has). Closes after a terminal status; comments keep proxies from timing out.
 */
export function runEventStream(
  deps: { db: Db; hub: PubSubHub },
  teamId: string,
  runId: string,
  signal: AbortSignal,
  /** called once the stream has closed, whoever closed it */
  onClosed?: () => void,
): ReadableStream<Uint8Array> {
  let cleanup: () => Promise<void> = async () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let unsubscribe: (() => Promise<void>) | null = null;
      const timer = setInterval(() => send(`: keep-alive ${Date.now()}\n\n`), HEARTBEAT_MS);
      cleanup = async () => {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        onClosed?.();
        await unsubscribe?.().catch(() => {});
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      function send(chunk: Uint8Array | string) {
        if (closed) return;
        try {
          controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
        } catch {
          void cleanup();
        }
      }
      signal.addEventListener('abort', () => void cleanup());
      const onEvent = (e: LiveEvent) => {
        send(frame(e.type, e));
        if (e.type === 'status' && TERMINAL_RUN_STATUSES.includes(e.status))
          setTimeout(() => void cleanup(), 250);
      };
      try {
        unsubscribe = await listenRunEvents(deps.hub, runId, onEvent);
        // the viewer may have left while Redis confirmed the subscription
        if (closed) return void (await unsubscribe());
        const [run, series] = await Promise.all([
          deps.db.run.findFirst({ where: { id: runId, teamId }, select: { status: true } }),
          getRunSeries(deps.db, teamId, runId),
        ]);
        send(
          frame('snapshot', {
            status: run?.status ?? null,
            points: series.points,
            totalSeconds: series.totalSeconds,
            downsampled: series.downsampled,
          }),
        );
        if (run && TERMINAL_RUN_STATUSES.includes(run.status as RunStatus)) await cleanup();
      } catch (e) {
        send(frame('error', { message: e instanceof Error ? e.message : 'stream failed' }));
        await cleanup();
      }
    },
    cancel() {
      return cleanup();
    },
  });
}
