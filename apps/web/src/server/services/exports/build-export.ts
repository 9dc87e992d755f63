import { parseRun, readPositionsInRound, type Db } from '@poolbench/db';
import { RUN_METRICS } from '@poolbench/stats';
import type { Comparison } from '../compare/build-comparison';
import { readSeconds } from '../compare/read-seconds';
import type { Pivot } from '../compare/pivot';
import { windowSummaries } from '../compare/window-summaries';
import { toCsv } from './csv';
import { scriptColumns } from './script-columns';
import { renderReportHtml, headline } from './report-html';

export type ExportFormat = 'csv' | 'json' | 'html' | 'summary-csv';

const SERIES_COLUMNS = [
  'requests',
  'failed',
  'p50Ms',
  'p95Ms',
  'p99Ms',
  'connectingP95Ms',
  'cpuPercent',
  'rssBytes',
  'poolInUse',
  'poolWaitMs',
] as const;

/**
 * The downloads of a comparison (or a single run, as a one-group comparison): per-second series of
 * every run as CSV, per-run summaries as CSV, everything as JSON, or the offline HTML report. Reads
 * only the comparison's own runs (its groups were already resolved within one team).
 */
export async function buildExport(
  db: Db,
  c: Comparison,
  format: ExportFormat,
  meta: { title: string; pivot?: Pivot | null; now?: Date },
): Promise<{ body: string; contentType: string; extension: string }> {
  if (format === 'html') {
    return {
      body: renderReportHtml(c, {
        title: meta.title,
        subtitle: headline(c),
        description: headline(c),
        generatedAt: meta.now ?? new Date(),
        pivot: meta.pivot ?? null,
      }),
      contentType: 'text/html; charset=utf-8',
      extension: 'html',
    };
  }
  const runGroup = new Map<string, string>();
  c.groups.forEach((g) => g.runIds.forEach((id) => runGroup.set(id, g.label)));
  const runIds = [...runGroup.keys()];
  const summaries = (
    await db.run.findMany({
      where: { id: { in: runIds } },
      select: { id: true, repeatIndex: true, summary: true, startedAt: true, finishedAt: true },
    })
  ).map(parseRun);
  // each run's place in its round: what an analysis of order effects needs besides the repeat
  const positions = await readPositionsInRound(db, runIds);
  // with a window, each run's summary over that window, as the comparison table computed it
  const windowed = c.window
    ? await windowSummaries(
        db,
        summaries.map((r) => ({ id: r.id, finished: r.finishedAt !== null })),
        c.window,
      )
    : null;
  const summaryOf = (r: (typeof summaries)[number]) =>
    windowed ? (windowed.get(r.id) ?? null) : r.summary;
  // the checks over the window like the rest of the row; the script's own metrics over whole
  // runs, as the compare view shows them (the series export has them per second)
  const scriptCols = scriptColumns(summaries, (r) => ({
    checks: summaryOf(r)?.checks,
    custom: r.summary?.custom,
    summary: r.summary,
  }));
  const summaryRows = summaries.map((r) => {
    const s = summaryOf(r);
    return [
      runGroup.get(r.id),
      r.id,
      r.repeatIndex + 1,
      positions.get(r.id),
      r.startedAt?.toISOString(),
      s?.requests,
      s?.failed,
      ...RUN_METRICS.map((m) => (s ? m.value(s) : null)),
      ...scriptCols.map((col) => col.value(r)),
    ];
  });
  const summaryHeader = [
    'group',
    'run_id',
    'repeat',
    'position_in_round',
    'started_at',
    'requests',
    'failed',
    ...RUN_METRICS.map((m) => `${m.key}${m.unit === '%' ? '_percent' : ''}`),
    ...scriptCols.map((col) => col.header),
  ];
  if (format === 'summary-csv')
    return {
      body: toCsv(summaryHeader, summaryRows),
      contentType: 'text/csv; charset=utf-8',
      extension: 'summary.csv',
    };
  const seconds = await readSeconds(db, runIds, c.window);
  if (format === 'csv') {
    // a second's counter total is its rate per second
    const secondCols = scriptColumns(
      seconds,
      (s) => ({ checks: s.checks, custom: s.custom, summary: null }),
      ['rate'],
    );
    return {
      body: toCsv(
        ['group', 'run_id', 'second', ...SERIES_COLUMNS, ...secondCols.map((col) => col.header)],
        seconds.map((s) => [
          runGroup.get(s.runId),
          s.runId,
          s.second,
          ...SERIES_COLUMNS.map((k) => s[k]),
          ...secondCols.map((col) => col.value(s)),
        ]),
      ),
      contentType: 'text/csv; charset=utf-8',
      extension: 'series.csv',
    };
  }
  const json = {
    title: meta.title,
    generatedAt: (meta.now ?? new Date()).toISOString(),
    window: c.window,
    baseline: c.groups[c.baselineIndex]?.label ?? null,
    groups: c.groups,
    table: c.rows,
    scriptMetrics: c.scriptMetrics,
    warnings: c.warnings,
    spectrum: c.spectrum,
    runs: summaries.map((r) => ({
      id: r.id,
      group: runGroup.get(r.id),
      repeat: r.repeatIndex + 1,
      positionInRound: positions.get(r.id) ?? null,
      summary: summaryOf(r),
      // over whole runs, whatever the window: the checks and the script's own metrics
      checks: r.summary?.checks ?? null,
      custom: r.summary?.custom ?? null,
    })),
    seconds: seconds.map((s) => ({
      ...s,
      rssBytes: s.rssBytes === null ? null : Number(s.rssBytes),
    })),
  };
  return {
    body: JSON.stringify(json, null, 2),
    contentType: 'application/json; charset=utf-8',
    extension: 'json',
  };
}
