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
