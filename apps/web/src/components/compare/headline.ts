import type { Verdict } from '@poolbench/stats';
import { VERDICT_LABEL, formatChange, formatValue } from './format-metric';

type Change = { estimate: number; lower: number; upper: number } | null | undefined;

/** What of a comparison the headline reads: the server's and the page's shapes both have it. */
export interface HeadlineInput {
  baselineIndex: number;
  groups: ReadonlyArray<{ label: string; repeats: number }>;
  rows: ReadonlyArray<{
    key: string;
    cells: ReadonlyArray<{ median: number | null } | undefined>;
    comparisons: ReadonlyArray<
      { changePercent?: Change; verdict?: Verdict | null } | null | undefined
    >;
  }>;
}

/**
 * One sentence with the headline numbers: the compare page's answer, the shared page's subtitle
 * and its og:description ("elastic 2..20 vs fixed 10: p95 +36 % (inconclusive), throughput ±0 %").
 */
export function headline(c: HeadlineInput): string {
  const base = c.groups[c.baselineIndex];
  const parts: string[] = [];
  const row = (k: string) => c.rows.find((r) => r.key === k);
  if (c.groups.length === 1 && base) {
    const rps = row('rps')?.cells[0]?.median;
    const p95 = row('p95Ms')?.cells[0]?.median;
    const err = row('errorRate')?.cells[0]?.median;
    return `${base.label}: ${formatValue(rps, 'req/s')}, p95 ${formatValue(p95, 'ms')}, errors ${formatValue(err, '%')} (${base.repeats} ${base.repeats === 1 ? 'run' : 'runs'}).`;
  }
  c.groups.forEach((g, i) => {
    if (i === c.baselineIndex) return;
    const p95 = row('p95Ms')?.comparisons[i];
    const rps = row('rps')?.comparisons[i];
    const bits: string[] = [];
    if (p95?.changePercent)
      bits.push(
        `p95 ${formatChange(p95.changePercent).estimate} (${VERDICT_LABEL[p95.verdict ?? 'inconclusive'].toLowerCase()})`,
      );
    if (rps?.changePercent) bits.push(`throughput ${formatChange(rps.changePercent).estimate}`);
    parts.push(
      `${g.label} vs ${base?.label ?? 'baseline'}: ${bits.join(', ') || 'no comparable values'}`,
    );
  });
  return `${parts.join('; ')}.`;
}
