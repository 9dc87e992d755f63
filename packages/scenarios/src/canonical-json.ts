function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/**
 * JSON with object keys sorted at every level. Postgres `jsonb` stores keys in its own order
 * (shorter keys first), so a value read back differs from the one written by key order alone:
 * compare stored JSON with this, never with plain JSON.stringify.
 */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(canonical(v));
}
