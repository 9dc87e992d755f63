import { describe, expect, it } from 'vitest';
import { AppError } from '@poolbench/contracts';
import { applyScale, listPresets } from './list-presets';
import { poolSizeCollapses, smallestDistinctScale } from './pool-scale';

const cfg = (name: string, params: Record<string, number>) => ({ name, config: { params } });

describe('pool sizes a scale must keep apart', () => {
  it('finds two configs whose sizes become equal, and a pool whose min reaches its max', () => {
    const original = [
      cfg('fixed', { maxConns: 50 }),
      cfg('prewarmed', { maxConns: 80 }),
      cfg('elastic', { minConns: 20, maxConns: 200 }),
    ];
    const scaled = [
      cfg('fixed', { maxConns: 2 }),
      cfg('prewarmed', { maxConns: 2 }),
      cfg('elastic', { minConns: 6, maxConns: 6 }),
    ];
    const lost = poolSizeCollapses(original, scaled);
    expect(lost).toContain(
      'fixed max connections 50 and prewarmed max connections 80 both become 2',
    );
    expect(lost).toContain(
      'elastic min connections 20 and elastic max connections 200 both become 6',
    );
    // equal at scale 1 stays allowed equal; different keys of different configs are not compared
    expect(
      poolSizeCollapses(
        [cfg('a', { maxConns: 10, minConns: 1 }), cfg('b', { maxConns: 10, upstreamConns: 100 })],
        [cfg('a', { maxConns: 1, minConns: 1 }), cfg('b', { maxConns: 1, upstreamConns: 10 })],
      ),
    ).toEqual(['a min connections 1 and a max connections 10 both become 1']);
  });

  it('a swapped order is a collapse too', () => {
    expect(
      poolSizeCollapses(
        [cfg('a', { maxConns: 10 }), cfg('b', { maxConns: 11 })],
        [cfg('a', { maxConns: 3 }), cfg('b', { maxConns: 2 })],
      ),
    ).toEqual(['a max connections 10 and b max connections 11 become 3 and 2']);
  });

  it('names the smallest scale that works, on a grid of 0.005', () => {
    expect(smallestDistinctScale(0.01, (s) => (s < 0.0425 ? ['x'] : []))).toBe(0.045);
    expect(smallestDistinctScale(0.5, () => ['x'])).toBeNull();
  });

  it("seed 003 at 0.03 is refused by name at 'scale'; 0.05 keeps fixed 50 < prewarmed 80", () => {
    let error: unknown;
    try {
      applyScale('seed-003-seven-strategies-burst', 0.03);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    const problem = (error as AppError).problems[0];
    expect(problem?.path).toBe('scale');
    expect(problem?.message).toMatch(
      /fixed \(naive\) max connections 50 and prewarmed max connections 80 both become 2/,
    );
    expect(problem?.message).toMatch(/smallest scale that keeps them apart is 0\.04$/);
    const ok = applyScale('seed-003-seven-strategies-burst', 0.05);
    const size = (n: string) => ok.poolConfigs.find((p) => p.name === n)?.config.params.maxConns;
    expect(size('fixed (naive)')).toBeLessThan(size('prewarmed')!);
  });

  it('every preset keeps its pool sizes apart at its default and its seeds scale', () => {
    for (const p of listPresets())
      for (const scale of [p.defaultScale, p.seedsScale])
        expect(() => applyScale(p.id, scale), `${p.id} at ${scale}`).not.toThrow();
  });
});
