import { POOL_PARAM_DEFS } from '../pool/param-defs';

/** The pool sizes a preset scales: compared across configs by key. */
const SIZE_KEYS = [
  'maxConns',
  'minConns',
  'initialConns',
  'secondaryMaxConns',
  'upstreamConns',
] as const;
type SizeKey = (typeof SIZE_KEYS)[number];
/** Sizes of one pool, compared within a config too (min ≤ initial ≤ max). */
const SAME_POOL: readonly SizeKey[] = ['minConns', 'initialConns', 'maxConns'];

interface SizedConfig {
  name: string;
  config: { params?: Partial<Record<string, number>> };
}

interface Size {
  config: string;
  key: SizeKey;
  original: number;
  scaled: number;
}

function sizesOf(original: SizedConfig[], scaled: SizedConfig[]): Size[] {
  const out: Size[] = [];
  for (const o of original) {
    const s = scaled.find((c) => c.name === o.name);
    if (!s) continue;
    for (const key of SIZE_KEYS) {
      const a = o.config.params?.[key];
      const b = s.config.params?.[key];
      if (a !== undefined && b !== undefined)
        out.push({ config: o.name, key, original: a, scaled: b });
    }
  }
  return out;
}

const named = (x: Size) =>
  `${x.config} ${POOL_PARAM_DEFS[x.key].label.toLowerCase()} ${x.original}`;

/**
 * Pool sizes the seed tells apart that a scaled preset no longer does: two configs' sizes (same
 * param), or one pool's min/initial/max, whose strict order at scale 1 is lost at the scale
 * (rounding made them equal or swapped them). Empty when every distinction survives. A scale that
 * collapses fixed 50 and prewarmed 80 into 2 and 2 turns "prewarmed beats fixed" into a claim
 * about two equal pools.
 */
export function poolSizeCollapses(original: SizedConfig[], scaled: SizedConfig[]): string[] {
  const sizes = sizesOf(original, scaled);
  const out: string[] = [];
  for (const a of sizes)
    for (const b of sizes) {
      const comparable =
        a.config === b.config
          ? SAME_POOL.includes(a.key) && SAME_POOL.includes(b.key)
          : a.key === b.key;
      if (!comparable || !(a.original < b.original) || a.scaled < b.scaled) continue;
      out.push(
        a.scaled === b.scaled
          ? `${named(a)} and ${named(b)} both become ${a.scaled}`
          : `${named(a)} and ${named(b)} become ${a.scaled} and ${b.scaled}`,
      );
    }
  return out;
}

/**
 * The smallest scale at or above `from` (in steps of 0.005, up to 1) at which `collapses` finds
 * nothing, or null when even scale 1 collapses (it cannot: scale 1 is the seed).
 */
export function smallestDistinctScale(
  from: number,
  collapses: (scale: number) => string[],
): number | null {
  for (let k = Math.ceil(from * 200); k <= 200; k++) {
    const scale = k / 200;
    if (collapses(scale).length === 0) return scale;
  }
  return null;
}
