import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { changePoints } from './change-points';
import { changePointSeries } from './testing/change-point-series';

// Apache Otava itself (apache-otava 0.8.0 on PyPI, in the virtual environment scripts/setup.sh
// makes) against PoolBench on the labelled series, at both tools' defaults.
const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '..', '..', '..');
const PYTHON = join(
  process.env.POOLBENCH_DATA_DIR ?? join(REPO, '.data'),
  'otava',
  'bin',
  'python',
);

describe('change points agree with Apache Otava', () => {
  it('finds the same change points within one index on every labelled series', () => {
    expect(existsSync(PYTHON), `${PYTHON}: run scripts/setup.sh --for-tests`).toBe(true);
    const series = changePointSeries();
    expect(series.length).toBeGreaterThanOrEqual(20);
    const otava = JSON.parse(
      execFileSync(PYTHON, [join(HERE, '..', 'reference', 'otava_change_points.py')], {
        input: JSON.stringify(series.map((s) => s.values)),
      }).toString(),
    ) as Array<Array<{ index: number; pValue: number }>>;
    const differences: string[] = [];
    series.forEach((s, i) => {
      const ours = changePoints(s.values).map((c) => c.index);
      const theirs = otava[i]!.map((c) => c.index);
      const same =
        ours.length === theirs.length && ours.every((x, k) => Math.abs(x - theirs[k]!) <= 1);
      if (!same) differences.push(`${s.name}: PoolBench ${ours}, Otava ${theirs}`);
    });
    expect(differences).toEqual([]);
  });
});
