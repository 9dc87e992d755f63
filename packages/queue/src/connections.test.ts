import { describe, expect, it } from 'vitest';
import { producerConnection } from './connections';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';

describe('producer connection (real Redis)', () => {
  it('holds the commands of a fresh connection until its first ready', async () => {
    const redis = producerConnection(url);
    try {
      expect(redis.status).not.toBe('ready');
      // sent in the same tick as the constructor, before any handshake
      const [pong, missing] = await Promise.all([redis.ping(), redis.get('poolbench:no-such-key')]);
      expect(pong).toBe('PONG');
      expect(missing).toBeNull();
    } finally {
      redis.disconnect();
    }
  });

  it('fails commands at once once a connection it had is lost', async () => {
    const redis = producerConnection(url, { retryStrategy: () => 2000 }).on('error', () => {});
    const killer = producerConnection(url);
    try {
      await redis.ping();
      const id = (await redis.client('ID')) as number;
      await killer.client('KILL', 'ID', String(id));
      const end = Date.now() + 5000;
      while (redis.status === 'ready' && Date.now() < end)
        await new Promise((r) => setTimeout(r, 5));
      expect(redis.status).not.toBe('ready');
      await expect(redis.get('poolbench:no-such-key')).rejects.toThrow(/enableOfflineQueue/);
    } finally {
      redis.disconnect();
      killer.disconnect();
    }
  });

  it('gives up on a Redis that never answers instead of holding a command forever', async () => {
    // nothing listens on port 1
    const redis = producerConnection('redis://127.0.0.1:1').on('error', () => {});
    try {
      await expect(redis.get('k')).rejects.toThrow();
    } finally {
      redis.disconnect();
    }
  });

  it('fails commands at once after a first attempt that did not connect', async () => {
    // nothing listens on port 1: the first attempt is refused, then ioredis keeps retrying
    const redis = producerConnection('redis://127.0.0.1:1', { retryStrategy: () => 2000 }).on(
      'error',
      () => {},
    );
    try {
      await new Promise((r) => redis.once('close', r));
      await expect(redis.get('k')).rejects.toThrow(/enableOfflineQueue/);
    } finally {
      redis.disconnect();
    }
  });

  it('keeps the caller\u2019s own offline-queue choice', async () => {
    const redis = producerConnection(url, { enableOfflineQueue: false, lazyConnect: true });
    try {
      await expect(redis.get('k')).rejects.toThrow(/enableOfflineQueue/);
    } finally {
      redis.disconnect();
    }
  });
});
