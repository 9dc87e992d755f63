/** One side of a comparison: a single run, or an experiment cell (pool config × scenario, all repeats). */
export type CompareItemRef =
  | { kind: 'run'; runId: string }
  | { kind: 'cell'; experimentId: string; poolConfigId: string; scenarioId: string };

/** Compact URL form: `r.<id>` or `c.<experimentId>.<poolConfigId>.<scenarioId>`, comma-separated. */
export function compareItemsParam(items: readonly CompareItemRef[]): string {
  return items
    .map((i) =>
      i.kind === 'run' ? `r.${i.runId}` : `c.${i.experimentId}.${i.poolConfigId}.${i.scenarioId}`,
    )
    .join(',');
}

export function compareItemsFromParam(param: string | null | undefined): CompareItemRef[] {
  if (!param) return [];
  const out: CompareItemRef[] = [];
  for (const part of param.split(',')) {
    const [k, a, b, c] = part.split('.');
    if (k === 'r' && a) out.push({ kind: 'run', runId: a });
    else if (k === 'c' && a && b && c)
      out.push({ kind: 'cell', experimentId: a, poolConfigId: b, scenarioId: c });
  }
  return out;
}

export interface CompareLinkOptions {
  /** index into items of the baseline */
  baseline?: number | null;
  /** elapsed-seconds window, [from, to) */
  window?: { from: number; to: number } | null;
  /** open the picker with these items */
  edit?: boolean;
  /** `default`: every metric's own floor, not the A/A calibration's noise floor */
  noiseFloor?: 'calibrated' | 'default' | null;
}

/** The query of the compare view (without `?`): items, then baseline and window when given. */
export function compareQuery(items: readonly CompareItemRef[], o: CompareLinkOptions = {}): string {
  return [
    ...(o.edit ? ['edit=1'] : []),
    `items=${compareItemsParam(items)}`,
    ...(o.baseline !== undefined && o.baseline !== null ? [`baseline=${o.baseline}`] : []),
    ...(o.window ? [`from=${o.window.from}`, `to=${o.window.to}`] : []),
    ...(o.noiseFloor === 'default' ? ['floor=default'] : []),
  ].join('&');
}

/** The app path of the compare view, the one builder every link to it uses. */
export function comparePath(items: readonly CompareItemRef[], o: CompareLinkOptions = {}): string {
  return `/compare?${compareQuery(items, o)}`;
}

/** Two cells of one experiment, base first and as the baseline (hypotheses, seeds, trends). */
export function cellPairPath(
  experimentId: string,
  base: { poolConfigId: string; scenarioId: string },
  candidate: { poolConfigId: string; scenarioId: string; experimentId?: string },
  window?: { from: number; to: number } | null,
): string {
  return comparePath(
    [
      { kind: 'cell', experimentId, ...base },
      {
        kind: 'cell',
        experimentId: candidate.experimentId ?? experimentId,
        poolConfigId: candidate.poolConfigId,
        scenarioId: candidate.scenarioId,
      },
    ],
    { baseline: 0, window },
  );
}
