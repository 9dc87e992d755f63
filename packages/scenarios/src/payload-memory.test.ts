import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits';
import { bodyMemoryBytes, jsonBodyStats } from './payload-memory';
import { validateScenario } from './validate-scenario';

const sustained = (vus: number, value: unknown, durationMs = 1000) => ({
  template: 'sustained',
  params: { vus, durationMs },
  requests: [{ method: 'POST', path: '/ingest', body: { kind: 'json', value } }],
});
/** A JSON document of `n` small objects (5 values each: the object and its 4 members). */
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, name: `row-${i}`, ok: i % 2 === 0, v: i * 1.5 }));

describe('JSON request bodies: size limit and memory budget', () => {
  it('counts serialized UTF-8 bytes and every JSON value, also of long arrays', () => {
    expect(jsonBodyStats({ a: [1, 2, { b: 'é' }] })).toEqual({
      bytes: JSON.stringify({ a: [1, 2, { b: 'é' }] }).length + 1,
      values: 6,
    });
    expect(jsonBodyStats(rows(10)).values).toBe(51); // the array and 10 x (object + 4 members)
    expect(jsonBodyStats(Array(500_000).fill(0))).toEqual({ bytes: 1_000_001, values: 500_001 });
    expect(bodyMemoryBytes({ kind: 'bytes', sizeBytes: 1000, contentType: 'x' })).toBe(1000);
    expect(bodyMemoryBytes({ kind: 'none' })).toBe(0);
  });

  it('rejects a 5 MB JSON body (the attack: 2 000 VUs for 2 h) naming the field and the limit', () => {
    const body = { blob: 'x'.repeat(5 * 1024 * 1024) };
    const problems = validateScenario(sustained(LIMITS.maxVUs, body, LIMITS.maxDurationMs));
    const size = problems.find((p) => p.path === 'requests.0.body.value');
    expect(size?.message).toContain(`at most ${LIMITS.maxJsonBodyBytes} bytes (1 MiB)`);
    expect(size?.message).toContain(`this one is ${JSON.stringify(body).length} bytes`);
  });

  it('a JSON body under the size limit still counts toward the memory budget, like bytes bodies', () => {
    const blob = { blob: 'x'.repeat(900 * 1024) }; // ~0.9 MiB: ~1.8 MiB per VU
    expect(validateScenario(sustained(50, blob))).toEqual([]);
    const problems = validateScenario(sustained(LIMITS.maxVUs, blob));
    expect(problems).toEqual([
      {
        path: 'requests',
        message: expect.stringContaining('requests.0.body.value is JSON') as unknown as string,
      },
    ]);
    expect(problems[0]!.message).toMatch(/x 2000 VUs = \d+ MiB; the limit is 2048 MiB/);
  });

  it('many small JSON values cost far more than their size (k6 measured ~31 MiB per VU for 1.84 MB of them)', () => {
    const measured = rows(34_953); // the document measured with k6: 1.84 MB, 31 808 KiB per VU
    expect(jsonBodyStats(measured).bytes).toBe(1_840_357);
    expect(bodyMemoryBytes({ kind: 'json', value: measured })).toBeGreaterThanOrEqual(
      31_808 * 1024,
    );
    const small = rows(12_000); // ~0.7 MB, under the size limit
    expect(jsonBodyStats(small).bytes).toBeLessThan(LIMITS.maxJsonBodyBytes);
    // ~12 MiB per VU: 150 VUs fit in 2 GiB, 300 do not, although 0.7 MB x 300 would
    expect(validateScenario(sustained(150, small))).toEqual([]);
    expect(validateScenario(sustained(300, small)).map((p) => p.path)).toEqual(['requests']);
  });
});
