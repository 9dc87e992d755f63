import { normalDraw, seededRandom } from '../seeded-random';

/**
 * Synthetic histories with known change points, for the comparison with Apache Otava and the
 * precision/recall table (docs/change-points.md): steps up and down of several sizes, several at
 * once, a slow drift, single outliers, and noise from 2 % to 50 % (log-normal, so values stay
 * positive like latencies and throughputs).
 */
export interface LabelledSeries {
  name: string;
  values: number[];
  /** indexes of the first value after each true change (a drift has none) */
  truth: number[];
}

interface Spec {
  name: string;
  length: number;
  /** relative noise (coefficient of variation) */
  cv: number;
  /** [index, factor]: from index on, the level is multiplied by factor */
  steps?: Array<[number, number]>;
  /** total relative rise spread evenly over the whole series */
  drift?: number;
  /** [index, factor]: one value times factor */
  outliers?: Array<[number, number]>;
}

const SPECS: Spec[] = [
  { name: 'flat, 2 % noise', length: 60, cv: 0.02 },
  { name: 'flat, 10 % noise', length: 60, cv: 0.1 },
  { name: 'flat, 30 % noise', length: 80, cv: 0.3 },
  { name: 'flat, 50 % noise', length: 80, cv: 0.5 },
  { name: '+10 % step, 2 % noise', length: 40, cv: 0.02, steps: [[20, 1.1]] },
  { name: '+20 % step, 5 % noise', length: 40, cv: 0.05, steps: [[25, 1.2]] },
  { name: '+50 % step, 10 % noise', length: 60, cv: 0.1, steps: [[30, 1.5]] },
  { name: '2× step, 30 % noise', length: 60, cv: 0.3, steps: [[30, 2]] },
  { name: '3× step, 50 % noise', length: 80, cv: 0.5, steps: [[40, 3]] },
  { name: '−30 % step, 5 % noise', length: 50, cv: 0.05, steps: [[20, 0.7]] },
  { name: '−50 % step, 20 % noise', length: 60, cv: 0.2, steps: [[35, 0.5]] },
  { name: '+5 % step, 2 % noise', length: 60, cv: 0.02, steps: [[30, 1.05]] },
  {
    name: 'up then down, 5 % noise',
    length: 60,
    cv: 0.05,
    steps: [
      [20, 1.3],
      [40, 1 / 1.3],
    ],
  },
  {
    name: 'two steps up, 10 % noise',
    length: 90,
    cv: 0.1,
    steps: [
      [30, 1.5],
      [60, 1.5],
    ],
  },
  {
    name: 'three steps, 5 % noise',
    length: 120,
    cv: 0.05,
    steps: [
      [30, 1.2],
      [60, 0.8],
      [90, 1.5],
    ],
  },
  { name: 'late step, 5 % noise', length: 40, cv: 0.05, steps: [[35, 1.5]] },
  { name: 'early step, 5 % noise', length: 40, cv: 0.05, steps: [[5, 1.5]] },
  { name: 'step in a long history, 10 % noise', length: 150, cv: 0.1, steps: [[100, 1.4]] },
  { name: 'slow drift +50 %, 5 % noise', length: 80, cv: 0.05, drift: 0.5 },
  { name: 'slow drift +20 %, 10 % noise', length: 80, cv: 0.1, drift: 0.2 },
  { name: 'one outlier 5×, 5 % noise', length: 50, cv: 0.05, outliers: [[25, 5]] },
  {
    name: 'two outliers, 10 % noise',
    length: 60,
    cv: 0.1,
    outliers: [
      [15, 4],
      [45, 0.2],
    ],
  },
  {
    name: 'outlier beside a step, 5 % noise',
    length: 60,
    cv: 0.05,
    steps: [[30, 1.5]],
    outliers: [[10, 4]],
  },
  { name: '+30 % step, 2 % noise', length: 30, cv: 0.02, steps: [[15, 1.3]] },
];

export function changePointSeries(seed = 20261129): LabelledSeries[] {
  return SPECS.map((spec, k) => {
    const random = seededRandom(seed + k);
    const sigma = Math.sqrt(Math.log(1 + spec.cv * spec.cv));
    const values: number[] = [];
    for (let i = 0; i < spec.length; i++) {
      let level = 100;
      for (const [at, f] of spec.steps ?? []) if (i >= at) level *= f;
      if (spec.drift) level *= 1 + (spec.drift * i) / (spec.length - 1);
      for (const [at, f] of spec.outliers ?? []) if (i === at) level *= f;
      values.push(level * Math.exp(sigma * normalDraw(random) - (sigma * sigma) / 2));
    }
    return { name: spec.name, values, truth: (spec.steps ?? []).map(([at]) => at) };
  });
}
