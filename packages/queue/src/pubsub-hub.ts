import type { Redis } from 'ioredis';

export type Unlisten = () => Promise<void>;

export interface PubSubHub {
  /**
   * Calls `onMessage` with every message published on `channel` from the moment the returned
   * promise resolves (Redis has confirmed the subscription) until the returned function is called.
   */
  listen(channel: string, onMessage: (message: string) => void): Promise<Unlisten>;
  /** Channels with at least one listener (what the single connection is subscribed to). */
  channels(): string[];
  close(): Promise<void>;
}

/**
 * One Redis subscriber connection for a whole process, shared by every listener: a channel is
 * subscribed when its first listener arrives and unsubscribed when its last one leaves, and each
 * message is handed to all of the channel's listeners. A hundred viewers of one live run cost one
 * connection and one subscription, not a hundred.
 *
 * The connection is made on first use. ioredis re-subscribes its channels after a reconnect, so a
 * Redis restart interrupts delivery but does not lose the listeners.
 */
export function createPubSubHub(connect: () => Redis): PubSubHub {
  let sub: Redis | null = null;
  const listeners = new Map<string, Set<(message: string) => void>>();
  // the SUBSCRIBE of a channel whose first listener is still waiting for Redis to confirm it
  const subscribing = new Map<string, Promise<unknown>>();

  const connection = (): Redis => {
    if (sub) return sub;
    sub = connect();
    sub.on('message', (channel: string, message: string) => {
      const set = listeners.get(channel);
      if (!set) return;
      for (const fn of [...set]) {
        try {
          fn(message);
        } catch {
          // one listener's failure is its own; the others still get the message
        }
      }
    });
    return sub;
  };

  return {
    async listen(channel, onMessage) {
      const conn = connection();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        const pending = conn.subscribe(channel).finally(() => subscribing.delete(channel));
        subscribing.set(channel, pending);
      }
      set.add(onMessage);
      const pending = subscribing.get(channel);
      if (pending) {
        try {
          await pending;
        } catch (e) {
          set.delete(onMessage);
          if (set.size === 0 && listeners.get(channel) === set) listeners.delete(channel);
          throw e;
        }
      }
      let done = false;
      return async () => {
        if (done) return;
        done = true;
        const current = listeners.get(channel);
        if (!current?.delete(onMessage) || current.size > 0) return;
        listeners.delete(channel);
        await conn.unsubscribe(channel).catch(() => {});
      };
    },
    channels: () => [...listeners.keys()],
    async close() {
      listeners.clear();
      subscribing.clear();
      const s = sub;
      sub = null;
      s?.disconnect();
    },
  };
}
