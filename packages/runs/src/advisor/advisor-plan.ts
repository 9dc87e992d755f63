import type { AdvisorSpec, AdvisorState } from '@poolbench/db';
import {
  checkLittlesLaw,
  fitUsl,
  median,
  planAdvisor,
  type AdvisorObservation as CoreObservation,
} from '@poolbench/stats';

/** A measured run of one setting, as the search reads it (with what the page shows beside it). */
export interface AdvisorObservation extends CoreObservation {
  runId: string;
  meanMs: number | null;
  poolWaitMsMean: number | null;
}

export interface AdvisorStep {
  /** settings to run next, one entry per run; empty when the search answered or stopped */
  next: number[];
  state: AdvisorState;
}

/**
 * Why a setting's runs failed, one reason of each kind (the first run's numbers): three runs that
 * missed the p99 limit read as one "p99 … > …", not three.
 */
function reasonKinds(reasons: string[]): string[] {
  const seen = new Map<string, string>();
  for (const r of reasons) {
    const kind = r.replace(/[\d.]+/g, '#');
    if (!seen.has(kind)) seen.set(kind, r);
  }
  return [...seen.values()];
}

/** the search's reason as a sentence of the summary: capitalised, with its full stop */
const sentence = (s: string) =>
  s ? `${s[0]!.toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}` : '';

const fmt = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined ? '–' : v.toFixed(digits);

/**
 * One step of the advisor: the search of @poolbench/stats (`planAdvisor`) on the runs so far,
 * and the state the page, REST and the CLI show: each setting's verdict and numbers, the USL fit of
 * throughput, Little's law per setting, and the answer in words with its evidence.
 */
export function planAdvisorStep(
  spec: AdvisorSpec,
  observations: AdvisorObservation[],
  /** every run the advisor has made, measured or not: they all count against the budget */
  runsMade = observations.length,
): AdvisorStep {
  const inRange = observations.filter((o) => o.setting >= spec.min && o.setting <= spec.max);
  // runs that ended without numbers (failed, timed out) spent budget too
  const unmeasured = Math.max(0, runsMade - inRange.length);
  const plan = planAdvisor({
    range: { min: spec.min, max: spec.max },
    objective: spec.objective,
    observations: inRange,
    budgetRuns: Math.max(0, spec.budgetRuns - unmeasured),
    repeatsPerSetting: spec.repeatsPerSetting,
  });
  const verdicts = new Map(plan.evidence.settings.map((v) => [v.setting, v]));
  const bySetting = new Map<number, AdvisorObservation[]>();
  for (const o of inRange) bySetting.set(o.setting, [...(bySetting.get(o.setting) ?? []), o]);
  const values = (xs: AdvisorObservation[], f: (o: AdvisorObservation) => number | null) =>
    xs.map(f).filter((v): v is number => v !== null && Number.isFinite(v));
  const settings: AdvisorState['settings'] = [...bySetting.keys()]
    .sort((a, b) => a - b)
    .map((setting) => {
      const runs = bySetting.get(setting)!;
      const p99 = values(runs, (o) => o.p99Ms);
      const rps = values(runs, (o) => o.rps);
      const err = values(runs, (o) => o.errorRate);
      const db = values(runs, (o) => o.dbConnectionsPeak ?? null);
      const rss = values(runs, (o) => o.rssPeakBytes ?? null);
      const inUse = values(runs, (o) => o.poolInUseMean ?? null);
      const v = verdicts.get(setting);
      return {
        setting,
        poolConfigId: '',
        runs: runs.length,
        meets: v?.passes ?? 0,
        verdict: v?.verdict ?? 'in-doubt',
        runsToSettle: v?.runsToSettle ?? null,
        reasons: reasonKinds((v?.failedRuns ?? []).flatMap((f) => f.reasons)),
        p99Median: p99.length ? median(p99) : null,
        p99Low: p99.length ? Math.min(...p99) : null,
        p99High: p99.length ? Math.max(...p99) : null,
        rpsMedian: rps.length ? median(rps) : null,
        rpsLow: rps.length ? Math.min(...rps) : null,
        rpsHigh: rps.length ? Math.max(...rps) : null,
        errorRateMedian: err.length ? median(err) : null,
        dbConnectionsPeak: db.length ? Math.max(...db) : null,
        rssPeakBytes: rss.length ? Math.max(...rss) : null,
        poolInUseMean: inUse.length ? median(inUse) : null,
      };
    });

  const points = inRange
    .filter((o) => o.rps !== null && Number.isFinite(o.rps))
    .map((o) => ({ n: o.setting, throughput: o.rps! }));
  const usl = fitUsl(points);
  const littlesLaw = settings.flatMap((s) => {
    const runs = bySetting.get(s.setting)!;
    const hold = values(runs, (o) =>
      o.meanMs === null ? null : Math.max(0, o.meanMs - (o.poolWaitMsMean ?? 0)),
    );
    if (s.poolInUseMean === null || s.poolInUseMean === undefined || !hold.length) return [];
    if (s.rpsMedian === null || s.rpsMedian === undefined) return [];
    let c;
    try {
      c = checkLittlesLaw({
        meanInUse: s.poolInUseMean,
        throughputPerS: s.rpsMedian,
        meanHoldMs: median(hold),
      });
    } catch {
      return []; // a number Little's law cannot take (negative, not finite)
    }
    return [
      {
        setting: s.setting,
        expected: c.expected,
        observed: c.observed,
        relativeDifference: c.relativeDifference,
        agrees: c.agrees,
      },
    ];
  });

  const knob = spec.knob;
  const now = new Date().toISOString();
  const base = {
    runsUsed: runsMade,
    budgetRuns: spec.budgetRuns,
    settings,
    usl:
      usl.kind === 'fit'
        ? {
            lambda1: usl.lambda1,
            sigma: usl.sigma,
            kappa: usl.kappa,
            peakN: usl.peakN,
            rSquared: usl.rSquared,
            points: usl.residuals.map((r) => ({
              n: r.n,
              observed: r.observed,
              fitted: r.fitted,
            })),
          }
        : null,
    uslNote: usl.kind === 'fit' ? null : `No USL fit: ${usl.message}.`,
    littlesLaw,
    updatedAt: now,
  };
  const evidenceOf = (setting: number | null) => {
    const lines: string[] = [];
    for (const s of settings) {
      const mark = setting === s.setting ? ' (recommended)' : '';
      lines.push(
        `${knob} ${s.setting}${mark}: ${s.verdict}, ${s.runs} run${s.runs === 1 ? '' : 's'}${spec.objective.kind === 'slo' ? ` (${s.meets} met the SLO)` : ''}; p99 ${fmt(s.p99Median)} ms [${fmt(s.p99Low)}, ${fmt(s.p99High)}], ${fmt(s.rpsMedian)} req/s, db connections up to ${fmt(s.dbConnectionsPeak, 0)}`,
      );
    }
    for (const m of plan.evidence.nonMonotone)
      lines.push(
        `Not monotone: ${knob} ${m.meets} meets the objective while the larger ${m.fails} fails it; the search assumes more connections never hurt, so look at these runs.`,
      );
    return lines;
  };

  if (plan.status === 'running')
    return {
      next: plan.next,
      state: {
        ...base,
        status: 'running',
        recommended: null,
        summary: `Searching: ${plan.next.length} more run${plan.next.length === 1 ? '' : 's'} at ${knob} ${[...new Set(plan.next)].sort((a, b) => a - b).join(', ')}. ${sentence(plan.reason)}`,
        evidence: evidenceOf(null),
        inDoubt: [],
        decidedAt: null,
      },
    };
  if (plan.status === 'decided') {
    const rec = plan.recommended === 'none' ? null : plan.recommended;
    const s = settings.find((x) => x.setting === rec);
    const objective =
      spec.objective.kind === 'slo'
        ? `meets p99 ≤ ${spec.objective.p99Ms} ms and errors ≤ ${(spec.objective.errorRate * 100).toFixed(2)} % at ${spec.objective.rate} req/s`
        : 'gives the highest throughput';
    return {
      next: [],
      state: {
        ...base,
        status: rec === null ? 'no-setting-meets' : 'decided',
        recommended: rec,
        summary:
          rec === null
            ? `No ${knob} from ${spec.min} to ${spec.max} ${objective}. ${sentence(plan.reason)}`
            : `${knob} ${rec} is the smallest setting that ${objective}: p99 ${fmt(s?.p99Median)} ms [${fmt(s?.p99Low)}, ${fmt(s?.p99High)}] over ${s?.runs ?? 0} runs. ${sentence(plan.reason)}`,
        evidence: evidenceOf(rec),
        inDoubt: [],
        decidedAt: now,
      },
    };
  }
  return {
    next: [],
    state: {
      ...base,
      status: 'budget-exhausted',
      recommended: null,
      summary: `The budget of ${spec.budgetRuns} runs ended before a decision${plan.bestSoFar !== null ? `; the best so far is ${knob} ${plan.bestSoFar}, not yet settled` : ''}. ${plan.inDoubt.map((d) => `${knob} ${d.setting} needs ${d.runsToSettle === null ? 'more' : `about ${d.runsToSettle} more`} runs`).join('; ')}. ${sentence(plan.reason)}`,
      evidence: evidenceOf(null),
      inDoubt: plan.inDoubt.map((d) => ({
        setting: d.setting,
        runsToSettle: d.runsToSettle ?? spec.repeatsPerSetting,
      })),
      decidedAt: now,
    },
  };
}
