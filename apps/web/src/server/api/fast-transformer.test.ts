import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { fastSuperjson, isPlainJson } from './fast-transformer';

class Point {
  x = 1;
}
const shared = { a: 1 };

describe('fastSuperjson', () => {
  const plain = [
    null,
    'x',
    0,
    1.5,
    -3,
    true,
    [],
    {},
    [1, 'a', null, { b: [2, 3] }],
    { points: Array.from({ length: 600 }, (_, i) => ({ t: i, p95: i * 1.5, rps: null })) },
    Object.create(null) as object,
  ];
  it.each(plain.map((v) => [JSON.stringify(v)?.slice(0, 40), v]))(
    'gives exactly what superjson gives for plain JSON: %s',
    (_, v) => {
      expect(isPlainJson(v)).toBe(true);
      expect(JSON.stringify(fastSuperjson.serialize(v))).toBe(
        JSON.stringify(superjson.serialize(v)),
      );
    },
  );

  const special: [string, unknown][] = [
    ['a Date', { at: new Date(0) }],
    ['undefined in an object', { a: undefined }],
    ['undefined in an array', [1, undefined]],
    ['a hole in an array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['NaN', { v: NaN }],
    ['Infinity', [Infinity]],
    ['-0', { v: -0 }],
    ['a bigint', { v: 10n }],
    ['a Map', { m: new Map([[1, 2]]) }],
    ['a Set', new Set([1])],
    ['a class instance', { p: new Point() }],
    ['a shared reference', { a: shared, b: shared }],
  ];
  it.each(special)('hands %s to superjson, so it round-trips as before', (_, v) => {
    expect(isPlainJson(v)).toBe(false);
    const out = fastSuperjson.serialize(v);
    expect(out).toEqual(superjson.serialize(v));
    const wire = (x: unknown): Parameters<typeof superjson.deserialize>[0] =>
      JSON.parse(JSON.stringify(x));
    expect(fastSuperjson.deserialize(wire(out))).toEqual(
      superjson.deserialize(wire(superjson.serialize(v))),
    );
  });
});
