import { describe, expect, it } from 'vitest';
import { extendOffers } from './repeats-offers';

const exp = (
  id: string,
  extra: Partial<{ repeats: number; running: boolean; maxAddRepeats: number }> = {},
) => ({ id, name: `exp ${id}`, repeats: 3, running: false, maxAddRepeats: 47, ...extra });
const cell = (experimentId: string, repeats: number) => ({
  kind: 'cell' as const,
  experimentId,
  repeats,
});

describe('Add repeats offers under an inconclusive verdict', () => {
  it('two cells of one experiment: one offer, what the side with fewer runs lacks', () => {
    expect(extendOffers(cell('a', 3), cell('a', 2), 7, [exp('a')])).toEqual([
      { experimentId: 'a', experimentName: 'exp a', addRepeats: 5 },
    ]);
  });

  it('cells of two experiments: one offer each; single runs are never extended', () => {
    expect(
      extendOffers(cell('a', 3), cell('b', 4), 6, [exp('a'), exp('b')]).map((o) => [
        o.experimentId,
        o.addRepeats,
      ]),
    ).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    expect(
      extendOffers({ kind: 'run', experimentId: 'a', repeats: 1 }, cell('b', 3), 6, [
        exp('a'),
        exp('b'),
      ]).map((o) => o.experimentId),
    ).toEqual(['b']);
  });

  it('nothing for a running experiment or one at its limit; at least one, at most what is left', () => {
    expect(extendOffers(cell('a', 3), cell('a', 3), 6, [exp('a', { running: true })])).toEqual([]);
    expect(
      extendOffers(cell('a', 50), cell('a', 50), 50, [exp('a', { repeats: 50, maxAddRepeats: 0 })]),
    ).toEqual([]);
    expect(extendOffers(cell('a', 4), cell('a', 4), 4, [exp('a')])[0]!.addRepeats).toBe(1);
    expect(
      extendOffers(cell('a', 3), cell('a', 3), 40, [
        exp('a', { repeats: 45, maxAddRepeats: 5 }),
      ])[0]!.addRepeats,
    ).toBe(5);
  });
});
