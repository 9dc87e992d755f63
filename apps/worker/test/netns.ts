import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { settle, within } from './harness';

/** `ip …`, bounded: a hung call cannot block a teardown (it runs synchronously) */
const ip = (...args: string[]) =>
  execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 }).toString();

/** Whether this process may create network namespaces (root); the multi-host tests need it. */
export function canMakeNamespaces(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/**
 * A /24 under 10.213 that no interface has: two files making hosts at once (the integration
 * files run two at a time) must not put two bridges on one subnet, or each would route the
 * other's addresses.
 */
function freeSubnet(): string {
  const used = new Set(
    [...ip('-4', '-o', 'addr', 'show').matchAll(/inet 10\.213\.(\d+)\./g)].map((m) => Number(m[1])),
  );
  const free = Array.from({ length: 200 }, (_, i) => i + 20).filter((x) => !used.has(x));
  if (free.length === 0) throw new Error('no free 10.213.x.0/24 for the simulated hosts');
  return `10.213.${free[randomBytes(1)[0]! % free.length]}`;
}

/**
 * `count` simulated hosts: network namespaces joined by a bridge this test makes (veth pairs on a
 * private /24), with only loopback and that bridge inside. The root namespace's end of the bridge
 * (`.1`) carries TCP proxies to the real Postgres and Redis on the host's loopback, so workers in
 * the namespaces reach them and nothing else.
 */
export async function makeHosts(count: number) {
  const tag = randomBytes(2).toString('hex');
  const subnet = freeSubnet();
  const bridge = `pbdbr${tag}`;
  const hostIp = `${subnet}.1`;
  const names = Array.from({ length: count }, (_, i) => `pbd-${tag}-${i}`);
  const proxies: Server[] = [];
  const sockets = new Set<Socket>();
  /** pids of every process inside a namespace (none once it is gone) */
  const pidsIn = (ns: string): number[] => {
    try {
      return ip('netns', 'pids', ns).split('\n').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const namespacesLeft = () =>
    ip('netns', 'list')
      .split('\n')
      .map((l) => l.split(' ')[0])
      .filter((n) => names.includes(n!));
  /** SIGKILLs every process in the namespaces and waits (bounded) until none is left. */
  const killAll = async (ms = 10_000) => {
    for (const ns of names)
      for (const pid of pidsIn(ns))
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
    const until = Date.now() + ms;
    while (names.some((ns) => pidsIn(ns).length > 0)) {
      if (Date.now() > until)
        throw new Error(`still running: ${names.flatMap((ns) => pidsIn(ns)).join(' ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /**
   * Kills every process in the namespaces (workers, k6, targets), deletes the namespaces and the
   * bridge, and only then closes the proxies: nothing is left that could open a connection, the
   * tracked sockets are destroyed, and a close still waiting is given up after 5 s. Each step is
   * bounded and runs whatever the one before did. Safe to call twice.
   */
  const dispose = async () => {
    await settle(`hosts ${tag}`, [
      ['kill processes in the namespaces', () => killAll()],
      [
        'delete namespaces',
        async () => {
          for (const ns of namespacesLeft()) ip('netns', 'del', ns!);
          const left = namespacesLeft();
          if (left.length) throw new Error(`left: ${left.join(' ')}`);
        },
      ],
      [
        'delete bridge',
        async () => {
          // Deleting a namespace destroys the veth pairs in it later, from a kernel work queue:
          // each pair is deleted here by its bridge end, then the bridge, and what the kernel is
          // still tearing down is waited for (bounded) instead of read at one instant.
          for (const link of [...names.map((_, i) => `pbdv${tag}${i}`), bridge])
            try {
              ip('link', 'del', link);
            } catch {
              // not there (never made, or gone with its namespace already)
            }
          const linksLeft = () =>
            ip('-o', 'link')
              .split('\n')
              .filter((l) => l.includes(`pbd`) && l.includes(tag));
          const until = Date.now() + 10_000;
          while (linksLeft().length) {
            if (Date.now() > until) throw new Error(`links left: ${linksLeft().join('; ')}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        },
      ],
      [
        'close proxies',
        async () => {
          for (const s of sockets) s.destroy();
          await Promise.all(
            proxies.map((p) =>
              // close() stops accepting at once; its callback waits for connections to end
              within('proxy close', 5000, new Promise((r) => p.close(r))).catch(() => {}),
            ),
          );
        },
      ],
    ]);
  };
  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${hostIp}/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    names.forEach((ns, i) => {
      ip('netns', 'add', ns);
      ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
      ip('link', 'add', `pbdv${tag}${i}`, 'type', 'veth', 'peer', 'name', `pbdp${tag}${i}`);
      ip('link', 'set', `pbdp${tag}${i}`, 'netns', ns);
      ip('link', 'set', `pbdv${tag}${i}`, 'master', bridge);
      ip('link', 'set', `pbdv${tag}${i}`, 'up');
      ip(
        'netns',
        'exec',
        ns,
        'ip',
        'addr',
        'add',
        `${subnet}.${10 + i}/24`,
        'dev',
        `pbdp${tag}${i}`,
      );
      ip('netns', 'exec', ns, 'ip', 'link', 'set', `pbdp${tag}${i}`, 'up');
    });
  } catch (err) {
    await dispose().catch(() => {});
    throw err;
  }
  /**
   * A proxy on the bridge address to a service on the host's loopback; returns its port. When
   * either side closes, by an orderly end or by a reset (a process killed with unread data in its
   * socket), the other side is closed too: a worker killed inside a transaction loses its
   * Postgres session at once, as it would without the proxy; `pipe` alone ends the other side
   * only on an orderly end.
   */
  const expose = (port: number) =>
    new Promise<number>((resolve) => {
      const server = createServer((client) => {
        const upstream = connect(port, '127.0.0.1');
        const pair: [Socket, Socket][] = [
          [client, upstream],
          [upstream, client],
        ];
        for (const [s, peer] of pair) {
          sockets.add(s);
          s.on('error', () => s.destroy());
          s.on('close', () => {
            sockets.delete(s);
            peer.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      proxies.push(server);
      server.listen(0, hostIp, () => resolve((server.address() as { port: number }).port));
    });
  /** a service URL (postgres://…@127.0.0.1:54329/x, redis://…) as the namespaces reach it */
  const urlFor = async (url: string) => {
    const u = new URL(url);
    u.port = String(await expose(Number(u.port)));
    u.hostname = hostIp;
    return u.toString();
  };
  return {
    names,
    hostIp,
    addressOf: (i: number) => `${subnet}.${10 + i}`,
    urlFor,
    /** the command names of the processes running in a namespace */
    processesIn(ns: string): { pid: number; comm: string }[] {
      return pidsIn(ns).flatMap((pid) => {
        try {
          return [{ pid, comm: readFileSync(`/proc/${pid}/comm`, 'utf8').trim() }];
        } catch {
          return [];
        }
      });
    },
    killAll,
    dispose,
  };
}
export type Hosts = Awaited<ReturnType<typeof makeHosts>>;
