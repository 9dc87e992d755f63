import { type MethodChoice } from './mann-whitney';
import { type Direction } from './verdict';

export type Scale = 'log' | 'linear';
export type ScaleChoice = 'auto' | Scale;

/** Options of `compareSamples`; every field has a default. */
export interface CompareOptions {
  /**
   * Practical-significance floor in percent (default 5). On the log scale it means a factor of
   * 1 + floor/100 either way (+5 % or −4.76 %); on the linear scale, that share of the baseline
   * median unless `absoluteFloor` is set.
   */
  floorPercent?: number;
  /** Floor in the metric's own units, used on the linear scale only (e.g. 0.001 for error rates). */
  absoluteFloor?: number;
  /** `lower-is-better` (default: latency, errors, CPU, memory) or `higher-is-better` (throughput). */
  direction?: Direction;
  /** Significance level of the Mann–Whitney test (default 0.05). */
  alpha?: number;
  /** Confidence level of the interval (default 1 − alpha). */
  confidence?: number;
  /**
   * `auto` (default) compares on the log scale when every value is > 0 and on the linear scale
   * otherwise; pass `linear` for metrics that can be 0 so the scale does not flip between runs.
   */
  scale?: ScaleChoice;
  /** `auto` (default): exact without ties and below 50 runs per side, else normal approximation. */
  method?: MethodChoice;
}

export interface ResolvedOptions {
  floorPercent: number;
  absoluteFloor: number | null;
  direction: Direction;
  alpha: number;
  confidence: number;
  scale: ScaleChoice;
  method: MethodChoice;
}

export function resolveOptions(o: CompareOptions = {}): ResolvedOptions {
  const alpha = o.alpha ?? 0.05;
  const confidence = o.confidence ?? 1 - alpha;
  const floorPercent = o.floorPercent ?? 5;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  if (!(floorPercent >= 0 && Number.isFinite(floorPercent))) {
    throw new RangeError(`floorPercent must be a finite number >= 0, got ${floorPercent}`);
  }
  if (
    o.absoluteFloor !== undefined &&
    !(o.absoluteFloor >= 0 && Number.isFinite(o.absoluteFloor))
  ) {
    throw new RangeError(`absoluteFloor must be a finite number >= 0, got ${o.absoluteFloor}`);
  }
  return {
    floorPercent,
    absoluteFloor: o.absoluteFloor ?? null,
    direction: o.direction ?? 'lower-is-better',
    alpha,
    confidence,
    scale: o.scale ?? 'auto',
    method: o.method ?? 'auto',
  };
}
