import superjson from 'superjson';

/** superjson's `json` part: what a plain-JSON answer is sent as. */
type SuperJsonPayload = ReturnType<typeof superjson.serialize>;
type PlainJson = SuperJsonPayload['json'];

/**
 * True when superjson would add no `meta` to `v`: plain objects and arrays of strings, finite
 * numbers (not -0), booleans and null, no value `undefined` and no object reached twice (superjson
 * records shared references). Dates, Maps, bigints, NaN, class instances … are not plain.
 */
export function isPlainJson(v: unknown, seen: Set<object> = new Set()): v is PlainJson {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object') return false; // undefined, bigint, symbol, function
  if (seen.has(v)) return false;
  seen.add(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !isPlainJson(v[i], seen)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in v) if (!isPlainJson((v as Record<string, unknown>)[k], seen)) return false;
  return true;
}

/**
 * superjson with a fast path for answers that are plain JSON: the same `{ json }` superjson would
 * produce, without its path bookkeeping, which took 17 ms for one 15-minute run's chart series
 * (160 KB) where checking it takes ~1 ms; the client's superjson reads it unchanged. Anything
 * else (a Date, a Map, undefined …) goes through superjson as before.
 */
export const fastSuperjson = {
  serialize: (v: unknown): SuperJsonPayload =>
    isPlainJson(v) ? { json: v } : superjson.serialize(v),
  deserialize: superjson.deserialize.bind(superjson),
} satisfies { serialize: (v: unknown) => unknown; deserialize: (v: never) => unknown };
