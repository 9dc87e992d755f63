import { fieldError } from './app-error';

/**
 * Where a request's input holds a NUL character (U+0000), as a field path (`a.b.0.c`; a key with
 * one names itself), or null. Postgres stores no NUL in text or jsonb: such a value would fail in
 * the database as a server error, so every API refuses it at its door, naming the field.
 */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  const at = (k: string) => (path ? `${path}.${k}` : k);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = nulPath(value[i], at(String(i)));
      if (p !== null) return p;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return at(k.replaceAll('\u0000', '\\0'));
    const p = nulPath(v, at(k));
    if (p !== null) return p;
  }
  return null;
}

export const NUL_MESSAGE = 'must not contain a NUL character (U+0000)';

/** Throws the validation error naming the first field that holds a NUL character. */
export function refuseNul(value: unknown): void {
  const path = nulPath(value);
  if (path !== null) throw fieldError(path, NUL_MESSAGE);
}
