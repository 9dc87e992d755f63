import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_ORDER, RUN_ORDERS } from '@poolbench/contracts';
import { RunOrder } from '../generated/prisma/enums';
import { positionsInRound, roundOrder, runOrder } from './run-order';

const letters = (cells: ReturnType<typeof runOrder>) =>
  cells.map((c) => 'ABCDEFG'[c.poolConfigIndex]).join('');

describe('runOrder', () => {
  it('by default, in a 2-config experiment of 4 repeats, A runs first in exactly half the rounds', () => {
    const cells = runOrder(2, 1, 4, DEFAULT_RUN_ORDER);
    const firstOfRound = [0, 1, 2, 3].map((r) => cells.find((c) => c.repeatIndex === r)!);
    expect(firstOfRound.filter((c) => c.poolConfigIndex === 0)).toHaveLength(2);
    expect(letters(cells)).toBe('ABBAABBA');
  });
  it('counterbalanced: each repeat is one round, its configs in the order of the round', () => {
    const cells = runOrder(2, 2, 2, 'counterbalanced');
    expect(
      cells.map((c) => `${'AB'[c.poolConfigIndex]}${c.scenarioIndex}${c.repeatIndex}`),
    ).toEqual(['A00', 'B00', 'A10', 'B10', 'B01', 'A01', 'B11', 'A11']);
  });
  it('interleaves configs within each repeat in the same order: A B A B, not A A B B', () => {
    expect(letters(runOrder(2, 1, 3, 'interleaved'))).toBe('ABABAB');
  });
  it('blocked order keeps each config together', () => {
    expect(letters(runOrder(2, 1, 3, 'blocked'))).toBe('AAABBB');
  });
  it('covers every cell exactly once, in every order', () => {
    for (const order of RUN_ORDERS) {
      const cells = runOrder(3, 2, 4, order);
      expect(cells).toHaveLength(24);
      expect(
        new Set(cells.map((c) => `${c.poolConfigIndex}/${c.scenarioIndex}/${c.repeatIndex}`)).size,
      ).toBe(24);
    }
  });
  it('continues from a later repeat as if the experiment had been launched with them all', () => {
    for (const order of RUN_ORDERS) {
      const all = runOrder(3, 2, 7, order).filter((c) => c.repeatIndex >= 3);
      const later = runOrder(3, 2, 4, order, 3);
      expect(later).toEqual(all);
    }
    expect(letters(runOrder(2, 1, 2, 'counterbalanced', 3))).toBe('BAAB');
  });
});

describe('roundOrder', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    '%i configs: round 0 in config order, each config at each position once per that many rounds, each ordered neighbour pair once per cycle',
    (k) => {
      expect(roundOrder(k, 0)).toEqual(Array.from({ length: k }, (_, i) => i));
      const cycle = k % 2 === 0 ? k : 2 * k;
      const rows = Array.from({ length: cycle }, (_, r) => roundOrder(k, r));
      for (const row of rows) expect([...row].sort()).toEqual(roundOrder(k, 0));
      for (let start = 0; start < cycle; start += k)
        for (let position = 0; position < k; position++)
          expect(new Set(rows.slice(start, start + k).map((row) => row[position])).size).toBe(k);
      const pairs = rows.flatMap((row) => row.slice(1).map((c, i) => `${row[i]}>${c}`));
      expect(new Set(pairs).size).toBe(k * (k - 1));
      expect(pairs).toHaveLength(k % 2 === 0 ? k * (k - 1) : 2 * k * (k - 1));
      // the pattern repeats with the cycle
      expect(roundOrder(k, cycle + 1)).toEqual(rows[1 % cycle]);
    },
  );
  it('two configs alternate: A B, B A, A B, B A', () => {
    expect([0, 1, 2, 3].map((r) => roundOrder(2, r).join(''))).toEqual(['01', '10', '01', '10']);
  });
});

describe('positionsInRound', () => {
  it("is each run's place by sequence among the runs of its experiment, scenario and repeat", () => {
    const cells = runOrder(2, 2, 3, 'counterbalanced');
    const runs = cells.map((c, sequence) => ({
      id: `${'AB'[c.poolConfigIndex]}${c.scenarioIndex}${c.repeatIndex}`,
      experimentId: 'e',
      scenarioId: `s${c.scenarioIndex}`,
      repeatIndex: c.repeatIndex,
      sequence,
    }));
    const positions = positionsInRound([...runs].reverse());
    expect(['A00', 'B00', 'A01', 'B01', 'A02', 'A12'].map((id) => positions.get(id))).toEqual([
      0, 1, 1, 0, 0, 0,
    ]);
    // another experiment's runs are rounds of their own
    const other = positionsInRound([...runs, { ...runs[1]!, id: 'x', experimentId: 'f' }]);
    expect([other.get('x'), other.get('B00')]).toEqual([0, 1]);
  });
});

describe('RunOrder', () => {
  it('the database enum and the orders the contracts accept are the same values', () => {
    expect(Object.values(RunOrder)).toEqual([...RUN_ORDERS]);
  });
});
