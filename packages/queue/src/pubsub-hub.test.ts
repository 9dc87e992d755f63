import { randomBytes } from 'node:crypto';
import type { LiveEvent } from '@poolbench/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { producerConnection, workerConnection } from './connections';
import { createPubSubHub } from './pubsub-hub';
import { listenRunEvents, publishRunEvent } from './run-events';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:63799';
const pub = producerConnection(url);
afterAll(() => pub.disconnect());

/** Subscriber connections Redis counts for a channel (PUBSUB NUMSUB). */
async function subscribers(channel: string): Promise<number> {
  const reply = (await pub.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}

const until = async (ok: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
};

describe('pub/sub hub (real Redis)', () => {
  it('serves a hundred viewers of one run on one subscription, and lets go with the last', async () => {
    let connections = 0;
    const hub = createPubSubHub(() => {
      connections++;
      return workerConnection(url);
    });
    const runId = `run_${randomBytes(4).toString('hex')}`;
    const channel = `poolbench:run:${runId}`;
    const got: LiveEvent[][] = Array.from({ length: 100 }, () => []);
    const stops = await Promise.all(
      got.map((list) => listenRunEvents(hub, runId, (e) => list.push(e))),
    );
    expect(connections).toBe(1);
    expect(await subscribers(channel)).toBe(1);
    expect(hub.channels()).toEqual([channel]);

    await pub.publish(channel, 'not json');
    await publishRunEvent(pub, { type: 'heartbeat', runId, atMs: 1 });
    await until(() => got.every((l) => l.length === 1));
    for (const list of got) expect(list).toEqual([{ type: 'heartbeat', runId, atMs: 1 }]);

    // 99 leave: the subscription stays for the one left, who still hears the run
    await Promise.all(stops.slice(1).map((s) => s()));
    expect(await subscribers(channel)).toBe(1);
    await publishRunEvent(pub, { type: 'heartbeat', runId, atMs: 2 });
    await until(() => got[0]!.length === 2);
    expect(got[0]!.map((e) => e.atMs)).toEqual([1, 2]);
    expect(got[1]!.map((e) => e.atMs)).toEqual([1]);

    // the last one leaves (twice: a second call is harmless): nothing is subscribed any more
    await stops[0]!();
    await stops[0]!();
    expect(hub.channels()).toEqual([]);
    expect(await subscribers(channel)).toBe(0);
    await hub.close();
  });

  it('keeps channels apart and hears a viewer who arrives after the last one left', async () => {
    const hub = createPubSubHub(() => workerConnection(url));
    const [a, b] = [
      `run_${randomBytes(4).toString('hex')}`,
      `run_${randomBytes(4).toString('hex')}`,
    ];
    const heard: string[] = [];
    const stopA = await listenRunEvents(hub, a, (e) => heard.push(`a${e.atMs}`));
    const stopB = await listenRunEvents(hub, b, (e) => heard.push(`b${e.atMs}`));
    await publishRunEvent(pub, { type: 'heartbeat', runId: b, atMs: 1 });
    await until(() => heard.length === 1);
    expect(heard).toEqual(['b1']);

    // leave and come back at once: UNSUBSCRIBE and SUBSCRIBE go out in order on one connection
    const leaving = stopA();
    const stopA2 = await listenRunEvents(hub, a, (e) => heard.push(`a${e.atMs}`));
    await leaving;
    await publishRunEvent(pub, { type: 'heartbeat', runId: a, atMs: 2 });
    await until(() => heard.length === 2);
    expect(heard).toEqual(['b1', 'a2']);
    expect(await subscribers(`poolbench:run:${a}`)).toBe(1);
    await Promise.all([stopA2(), stopB()]);
    await hub.close();
  });

  it('a listener that throws does not keep the message from the others', async () => {
    const hub = createPubSubHub(() => workerConnection(url));
    const runId = `run_${randomBytes(4).toString('hex')}`;
    const heard: number[] = [];
    const stops = [
      await listenRunEvents(hub, runId, () => {
        throw new Error('viewer went away badly');
      }),
      await listenRunEvents(hub, runId, (e) => heard.push(e.atMs)),
    ];
    await publishRunEvent(pub, { type: 'heartbeat', runId, atMs: 7 });
    await until(() => heard.length === 1);
    expect(heard).toEqual([7]);
    await Promise.all(stops.map((s) => s()));
    await hub.close();
  });
});
