import { type SampleComparison } from './sample-comparison';

function signed(v: number, digits: number): string {
  const s = v.toFixed(digits);
  return v > 0 && Number(s) !== 0 ? `+${s}` : s;
}

function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toPrecision(2);
}

/** Interval and band in percent when there is a percent scale, otherwise in metric units. */
function describeInterval(c: SampleComparison): { interval: string; band: string } {
  const level = `${+(100 * c.confidence).toFixed(1)} %`;
  const band = c.noChangeBand;
  if (c.changePercent && band) {
    const lo =
      c.scale === 'log'
        ? 100 * Math.expm1(band.lower)
        : (100 * band.lower) / Math.abs(c.baseline.median ?? 1);
    const hi =
      c.scale === 'log'
        ? 100 * Math.expm1(band.upper)
        : (100 * band.upper) / Math.abs(c.baseline.median ?? 1);
    // Only the log scale (or a linear one without an absolute floor) gives the documented ±floor %;
    // an absolute floor is a fixed amount of the metric, so its percent depends on the baseline.
    const why =
      c.scale === 'linear' && c.floor.absolute !== null
        ? ` (this metric's absolute floor of ±${+c.floor.absolute.toPrecision(3)} in its own units around a baseline median of ${+(c.baseline.median ?? 0).toPrecision(3)}, not the ${c.floor.percent} % floor)`
        : '';
    return {
      interval: `the ${level} interval of the change ${signed(c.changePercent.lower, 1)} % … ${signed(c.changePercent.upper, 1)} %`,
      band: `${signed(lo, 2)} % … ${signed(hi, 2)} %${why}`,
    };
  }
  const s = c.shift;
  return {
    interval: s
      ? `the ${level} interval of the difference ${signed(s.lower, 4)} … ${signed(s.upper, 4)}`
      : 'the interval',
    band: band ? `${signed(band.lower, 4)} … ${signed(band.upper, 4)}` : 'the floor',
  };
}

/** One human sentence for the verdict, built only from fields of the comparison. */
export function describeVerdict(c: SampleComparison): string {
  const { interval, band } = describeInterval(c);
  const p = c.pValue === null ? '' : `p = ${formatP(c.pValue)}`;
  switch (c.rule) {
    case 'insufficient':
      return `not enough runs for a verdict: ${c.warnings.map((w) => w.message).join('; ')}`;
    case 'within-floor':
      return `${interval} lies inside the no-change band ${band}`;
    case 'beyond-floor':
      return `${interval} lies beyond the no-change band ${band} and ${p} < ${c.alpha}`;
    case 'beyond-floor-not-significant':
      return `${interval} lies beyond the no-change band ${band} but ${p} is not below ${c.alpha}`;
    case 'crosses-floor':
      return `${interval} crosses an edge of the no-change band ${band}; more runs would narrow it`;
  }
}
