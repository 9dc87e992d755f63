import type { Redis } from 'ioredis';
import {
  LiveEventSchema,
  RUN_CONTROL_CHANNEL,
  runEventsChannel,
  type LiveEvent,
} from '@poolbench/scenarios';
import { z } from 'zod';

export async function publishRunEvent(redis: Redis, event: LiveEvent): Promise<void> {
  await redis.publish(runEventsChannel(event.runId), JSON.stringify(event));
}

/**
 * Subscribes a dedicated connection (a subscriber cannot run other commands) to one run's events.
 * Malformed messages are dropped rather than breaking the stream.
 */
export async function subscribeRunEvents(
  sub: Redis,
  runId: string,
  onEvent: (e: LiveEvent) => void,
): Promise<() => Promise<void>> {
  const channel = runEventsChannel(runId);
  const listener = (ch: string, message: string) => {
    if (ch !== channel) return;
    try {
      const parsed = LiveEventSchema.safeParse(JSON.parse(message));
      if (parsed.success) onEvent(parsed.data);
    } catch {
      // not JSON: ignore
    }
  };
  sub.on('message', listener);
  await sub.subscribe(channel);
  return async () => {
    sub.off('message', listener);
    await sub.unsubscribe(channel).catch(() => {});
  };
}

export const RunControlSchema = z.object({ type: z.literal('cancel'), runId: z.string().min(1) });
export type RunControl = z.infer<typeof RunControlSchema>;

/** Asks whichever worker runs this run to cancel it (the database flag is the durable half). */
export async function publishCancel(redis: Redis, runId: string): Promise<void> {
  await redis.publish(
    RUN_CONTROL_CHANNEL,
    JSON.stringify({ type: 'cancel', runId } satisfies RunControl),
  );
}
