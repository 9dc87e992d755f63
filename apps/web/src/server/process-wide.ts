/**
 * One value per web process, however many copies of a module the bundler made. Next.js compiles
 * a module once per layer (route handlers, server-rendered pages, instrumentation), and each copy
 * has its own module-level variables; state that must be the same for all of them (caches that
 * answer requests, the listeners that forget their entries) lives here, on `globalThis`, by name.
 */
const store = ((
  globalThis as { __poolbenchProcessWide?: Map<string, unknown> }
).__poolbenchProcessWide ??= new Map<string, unknown>());

export function processWide<T>(name: string, create: () => T): T {
  if (!store.has(name)) store.set(name, create());
  return store.get(name) as T;
}

/**
 * Work a web process finishes before it exits on SIGTERM (server.mjs calls `beforeExit` through
 * src/instrumentation.ts once its server has closed): writes held back to batch them. By name, so
 * every copy of a module registers the same one.
 */
const beforeExitWork = processWide('before-exit', () => new Map<string, () => Promise<unknown>>());

export function onBeforeExit(name: string, work: () => Promise<unknown>): void {
  beforeExitWork.set(name, work);
}

/** Runs every registered piece of work; one that fails does not stop the others. */
export async function beforeExit(): Promise<void> {
  const results = await Promise.allSettled([...beforeExitWork.values()].map((work) => work()));
  for (const r of results) if (r.status === 'rejected') console.error('before exit:', r.reason);
}
