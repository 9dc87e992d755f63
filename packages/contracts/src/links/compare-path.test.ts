import { describe, expect, it } from 'vitest';
import {
  cellPairPath,
  compareItemsFromParam,
  comparePath,
  type CompareItemRef,
} from './compare-path';

describe('compare links', () => {
  const items: CompareItemRef[] = [
    { kind: 'run', runId: 'r1' },
    { kind: 'cell', experimentId: 'e1', poolConfigId: 'p1', scenarioId: 's1' },
  ];
  it('writes items, baseline and window, and reads the items back', () => {
    expect(comparePath(items)).toBe('/compare?items=r.r1,c.e1.p1.s1');
    expect(comparePath(items, { baseline: 0, window: { from: 5, to: 30 } })).toBe(
      '/compare?items=r.r1,c.e1.p1.s1&baseline=0&from=5&to=30',
    );
    expect(comparePath(items, { edit: true, baseline: null })).toBe(
      '/compare?edit=1&items=r.r1,c.e1.p1.s1',
    );
    expect(compareItemsFromParam('r.r1,c.e1.p1.s1,x.bad,c.only.two')).toEqual(items);
  });
  it('a cell pair is base first, as the baseline, across experiments when asked', () => {
    expect(
      cellPairPath(
        'e1',
        { poolConfigId: 'p', scenarioId: 's' },
        { poolConfigId: 'q', scenarioId: 's' },
      ),
    ).toBe('/compare?items=c.e1.p.s,c.e1.q.s&baseline=0');
    expect(
      cellPairPath(
        'e0',
        { poolConfigId: 'p', scenarioId: 's' },
        { experimentId: 'e2', poolConfigId: 'p', scenarioId: 's' },
      ),
    ).toBe('/compare?items=c.e0.p.s,c.e2.p.s&baseline=0');
  });
});
