import type { Redis } from 'ioredis';
import {
  LiveEventSchema,
  RUN_CONTROL_CHANNEL,
  runEventsChannel,
  type LiveEvent,
} from '@poolbench/contracts';
import { z } from 'zod';
import type { PubSubHub, Unlisten } from './pubsub-hub';

export async function publishRunEvent(redis: Redis, event: LiveEvent): Promise<void> {
  await redis.publish(runEventsChannel(event.runId), JSON.stringify(event));
}

/** A run event from its channel's message; null for anything malformed (dropped, never thrown). */
export function decodeRunEvent(message: string): LiveEvent | null {
  try {
    const parsed = LiveEventSchema.safeParse(JSON.parse(message));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
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
    const event = decodeRunEvent(message);
    if (event) onEvent(event);
  };
  sub.on('message', listener);
  await sub.subscribe(channel);
  return async () => {
    sub.off('message', listener);
    await sub.unsubscribe(channel).catch(() => {});
  };
}

/** One run's events through the process's shared subscriber (see `createPubSubHub`). */
export function listenRunEvents(
  hub: PubSubHub,
  runId: string,
  onEvent: (e: LiveEvent) => void,
): Promise<Unlisten> {
  return hub.listen(runEventsChannel(runId), (message) => {
    const event = decodeRunEvent(message);
    if (event) onEvent(event);
  });
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
