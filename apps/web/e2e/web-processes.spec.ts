import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signUpApi, trpcOk } from './helpers';
import { freePort } from './installation';
import { closeE2eDb, e2eDb, twoFinishedRuns } from './synthetic';

/**
 * The web app as several processes on one port (POOLBENCH_WEB_PROCESSES), the same build the
 * stack serves: both processes answer, one killed with -9 is replaced, a session and its
 * revocation hold across them, and a primary killed with -9 takes its servers with it (nothing
 * is left holding the port).
 */
const WEB = join(import.meta.dirname, '..');
const APP = process.env.POOLBENCH_URL ?? 'http://localhost:3000';

const children = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)])
    .toString()
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until<T>(what: string, f: () => T | Promise<T>, ok: (v: T) => boolean) {
  const end = Date.now() + 60_000;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Until the server answers /api/health with 200 (a socket error counts as not yet). */
const untilHealthy = (api: APIRequestContext, what = 'health') =>
  until(
    what,
    () =>
      api.get('/api/health').then(
        (r) => r.status(),
        () => 0,
      ),
    (s) => s === 200,
  );

test('two web processes share the port, replace one killed, and die with their primary', async ({
  playwright,
}) => {
  test.setTimeout(3 * 60_000);
  const port = await freePort();
  const base = `http://localhost:${port}`;
  let primary: ChildProcess | null = spawn('node', ['server.mjs'], {
    cwd: WEB,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      POOLBENCH_WEB_PROCESSES: '2',
      WEB_SWEEPER: '0',
    },
    stdio: 'ignore',
  });
  const pid = primary.pid!;
  try {
    const api = await playwright.request.newContext({ baseURL: base });
    await untilHealthy(api, 'health');
    const servers = await until(
      'two servers',
      () => children(pid),
      (c) => c.length === 2,
    );

    // a signed-in session is honoured whichever process answers (the app's own origin: it is
    // configured as the stack's)
    await signUpApi(api, APP, 'Two Processes');
    const cookie = (await api.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const bare = await playwright.request.newContext({ baseURL: base });
    const me = () => bare.get('/api/trpc/team.me', { headers: { cookie } }).then((r) => r.status());
    for (let i = 0; i < 10; i++) expect(await me()).toBe(200);

    // one server killed: the primary starts another, and requests keep being answered
    process.kill(servers[0]!, 'SIGKILL');
    const replaced = await until(
      'a replacement',
      () => children(pid),
      (c) => c.length === 2 && !c.includes(servers[0]!),
    );
    await untilHealthy(api, 'health after the replacement');

    // both processes have the session cached now; signing out in whichever answers ends it in
    // both at once, although the old cookie is still sent
    for (let i = 0; i < 10; i++) expect(await me()).toBe(200);
    expect(
      (await api.post('/api/auth/sign-out', { headers: { origin: APP }, data: {} })).ok(),
    ).toBe(true);
    for (let i = 0; i < 10; i++) expect(await me()).toBe(401);
    await Promise.all([api.dispose(), bare.dispose()]);

    // the primary killed with -9: its servers exit with it and the port is free again
    process.kill(pid, 'SIGKILL');
    primary = null;
    await until(
      'servers gone',
      () => replaced.filter(alive),
      (left) => left.length === 0,
    );
    await until(
      'port free',
      () => freePortIs(port),
      (free) => free,
    );
  } finally {
    if (primary) primary.kill('SIGTERM');
  }
});

test('a web process stopped with SIGTERM writes the share views it held back before it exits', async ({
  request,
  playwright,
}) => {
  // views of a busy link are written in batches, one row update per pause: the last batch is
  // still held when `make down` (stack.sh stop) or an orchestrator sends SIGTERM
  const email = await signUpApi(request, APP, 'Views On Exit');
  const call = trpcOk(request, APP);
  const [run] = await twoFinishedRuns(call, email, 'Views on exit', 5);
  const link = (await call('shareLink.create', {
    target: { kind: 'run', runId: run },
    title: 'views on exit',
  })) as unknown as { id: string; token: string };
  const port = await freePort();
  const server = spawn('node', ['server.mjs'], {
    cwd: WEB,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      POOLBENCH_WEB_PROCESSES: '1',
      WEB_SWEEPER: '0',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  try {
    const api = await playwright.request.newContext({ baseURL: `http://localhost:${port}` });
    await untilHealthy(api, 'health');
    const views = 40;
    for (let i = 0; i < views; i += 10) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () => api.get(`/share/${link.token}`).then((r) => r.status())),
      );
      expect(statuses).toEqual(Array(10).fill(200));
    }
    await api.dispose();
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    const stored = await e2eDb().shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(stored.accessCount).toBe(views);
  } finally {
    server.kill('SIGKILL');
    await closeE2eDb();
  }
});

test("a live event stream in another web process ends within 3 s of its viewer's removal or sign-out", async ({
  request,
  playwright,
}) => {
  test.setTimeout(3 * 60_000);
  // Two web processes sharing Postgres and Redis, as two pods do: the stack's (APP), where the
  // owner and the viewer act, and one started here, which serves the viewer's live stream.
  const port = await freePort();
  const other = `http://localhost:${port}`;
  const server = spawn('node', ['server.mjs'], {
    cwd: WEB,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      POOLBENCH_WEB_PROCESSES: '1',
      WEB_SWEEPER: '0',
    },
    stdio: 'ignore',
  });
  try {
    const email = await signUpApi(request, APP, 'Live Stream Owner');
    const call = trpcOk(request, APP);
    const [run] = await twoFinishedRuns(call, email, 'Live stream revocation', 3);
    // a run in progress: its stream stays open until the run ends or its viewer may no longer watch
    const live = () =>
      e2eDb().run.update({
        where: { id: run },
        data: { status: 'running', finishedAt: null, heartbeatAt: new Date() },
      });
    await live();
    const api = await playwright.request.newContext({ baseURL: other });
    await untilHealthy(api, 'health of the second process');
    await api.dispose();

    /** A viewer's stream in the second process; resolves with the ms from `mark()` to its end. */
    const watch = async (viewer: APIRequestContext) => {
      const cookie = (await viewer.storageState()).cookies
        .map((c) => `${c.name}=${c.value}`)
        .join('; ');
      const bare = await playwright.request.newContext({ baseURL: other });
      let markedAt = 0;
      const ended = bare
        .get(`/api/runs/${run}/events`, { headers: { cookie }, timeout: 30_000 })
        .then(async (r) => {
          expect(r.status()).toBe(200);
          await r.body();
          return markedAt ? Date.now() - markedAt : -1;
        })
        .finally(() => bare.dispose());
      let done = false;
      void ended.then(
        () => (done = true),
        () => (done = true),
      );
      await new Promise((r) => setTimeout(r, 2500)); // open across its own checks
      expect(done, 'the stream ended before its viewer lost access').toBe(false);
      return { ended, mark: () => (markedAt = Date.now()) };
    };
    const join = async (name: string) => {
      const inv = (await call('team.invite', { role: 'viewer' })) as unknown as { token: string };
      const viewer = await playwright.request.newContext({ baseURL: APP });
      const viewerEmail = await signUpApi(viewer, APP, name);
      await trpcOk(viewer, APP)('team.acceptInvitation', { token: inv.token });
      return { viewer, viewerEmail };
    };

    await test.step('removed from the team in the first process', async () => {
      const { viewer, viewerEmail } = await join('Live Stream Removed');
      const stream = await watch(viewer);
      const members = (await call('team.members', {}, 'query')) as unknown as {
        membershipId: string;
        email: string;
      }[];
      const them = members.find((m) => m.email === viewerEmail)!;
      stream.mark();
      await call('team.removeMember', { membershipId: them.membershipId });
      expect(await stream.ended).toBeLessThan(3000);
      await viewer.dispose();
    });

    await test.step('signed out in the first process', async () => {
      await live();
      const { viewer } = await join('Live Stream Signed Out');
      const stream = await watch(viewer);
      stream.mark();
      const out = await viewer.post('/api/auth/sign-out', { headers: { origin: APP }, data: {} });
      expect(out.ok()).toBe(true);
      expect(await stream.ended).toBeLessThan(3000);
      await viewer.dispose();
    });
  } finally {
    server.kill('SIGTERM');
    await closeE2eDb();
  }
});

const freePortIs = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
