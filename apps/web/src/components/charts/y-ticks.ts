const STEPS = [1, 2, 5, 10];

// the fewest decimals that write `step` exactly, so neighbouring ticks never print alike
function decimalsOf(step: number): number {
  for (let d = 0; d < 8; d++) {
    const x = step * 10 ** d;
    if (Math.abs(x - Math.round(x)) < 1e-6 * Math.max(1, x)) return d;
  }
  return 8;
}

/**
 * Y-axis ticks for a trend: about `count` round values (steps of 1, 2 or 5 × 10^n) covering
 * `values`, and a formatter whose precision follows the step, so a narrow range such as
 * 79.8–79.9 reads 79.80, 79.85, 79.90 instead of repeating "79.8".
 */
export function yTicks(
  values: number[],
  count = 5,
): { ticks: number[]; format: (v: number) => string } {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { ticks: [], format: String };
  let min = Math.min(...finite);
  let max = Math.max(...finite);
  // values that cannot be negative (latencies, rates) never get negative ticks
  const nonNegative = min >= 0;
  if (min === max) {
    const pad = Math.abs(min) * 0.05 || 1;
    min = nonNegative ? Math.max(0, min - pad) : min - pad;
    max += pad;
  }
  const raw = (max - min) / Math.max(1, count - 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = STEPS.find((s) => s * mag >= raw - 1e-12)! * mag;
  const lo = Math.max(nonNegative ? 0 : -Infinity, Math.floor(min / step + 1e-9));
  const hi = Math.ceil(max / step - 1e-9);
  const d = decimalsOf(step);
  const ticks: number[] = [];
  for (let k = lo; k <= hi; k++) ticks.push(Number((k * step).toFixed(d)));
  const top = Math.max(...ticks.map(Math.abs));
  const [scale, suffix] = top >= 1e6 ? [1e6, 'M'] : top >= 1e4 ? [1e3, 'k'] : [1, ''];
  const sd = decimalsOf(step / scale);
  return { ticks, format: (v) => `${(v / scale).toFixed(sd)}${suffix}` };
}
