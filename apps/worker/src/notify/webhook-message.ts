import { createHmac } from 'node:crypto';
import type { NotificationPayload } from '@poolbench/db';
import { failedThresholdText } from '@poolbench/stats';

export const SIGNATURE_HEADER = 'X-PoolBench-Signature';

/**
 * The signature of one delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the
 * schedule's webhook secret. Receivers recompute it over the raw body and refuse a stale `t`
 * (docs/notifications.md), so a captured delivery cannot be replayed later or altered.
 */
export function signBody(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

const pct = (v: number) =>
  `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(Math.abs(v) < 10 ? 1 : 0)} %`;

const changeText = (m: NotificationPayload['cells'][number]['metrics'][number]) =>
  m.changePercent
    ? ` ${pct(m.changePercent.estimate)} [${pct(m.changePercent.lower)}, ${pct(m.changePercent.upper)}]`
    : '';

/**
 * One line per regressed or suspect metric, per failed threshold and per cell that could not be
 * judged:
 * "p99 latency +210 % [+180 %, +240 %] (pool × scenario, 5 vs 5 runs)",
 * "suspected: p95 latency +409 % [−72 %, +1078 %] (…); about 8 repeats per side would settle it",
 * "threshold failed: http_req_duration p(95)<50 (observed 80) in run abc (pool × scenario)",
 * "incomplete: 2 of 3 candidate runs crashed (…) (pool × scenario)",
 * "change point (regression): p95Ms +61 % [+54 %, +68 %] between nightly 6 (abc) and nightly 7 (def), …".
 * A worse secondary metric (not primary) says so: it makes the cell suspected, not a regression.
 */
export function regressionLines(p: NotificationPayload): string[] {
  return p.cells.flatMap((c) => {
    const where = `${c.poolConfig} × ${c.scenario}, ${c.candidateRuns} vs ${c.baselineRuns} runs`;
    const worse = c.metrics
      .filter((m) => m.verdict === 'worse')
      .map(
        (m) =>
          `${m.primary === false ? 'secondary metric worse: ' : ''}${m.label}${changeText(m)} (${where})`,
      );
    const suspected = c.metrics
      .filter((m) => m.suspected)
      .map(
        (m) =>
          `suspected: ${m.label}${changeText(m)} (${where}); ${
            m.repeatsNeeded
              ? `about ${m.repeatsNeeded} repeats per side would settle it`
              : 'more repeats than an experiment allows would be needed to settle it'
          }`,
      );
    const thresholds = (c.failedThresholds ?? []).map(
      (t) => `threshold failed: ${failedThresholdText(t)} (${c.poolConfig} × ${c.scenario})`,
    );
    const incomplete = c.incomplete
      ? [`incomplete: ${c.incomplete} (${c.poolConfig} × ${c.scenario})`]
      : [];
    const behind = c.loadNotTaken
      ? [`load not taken: ${c.loadNotTaken} (${c.poolConfig} × ${c.scenario})`]
      : [];
    const changes = (c.changePoints ?? []).map(
      (cp) =>
        `change point (${cp.kind}): ${cp.metric} ${pct(100 * cp.change)}${
          cp.interval ? ` [${pct(100 * cp.interval.lower)}, ${pct(100 * cp.interval.upper)}]` : ''
        } between ${firingText(cp.before)} and ${firingText(cp.after)}, ${cp.firingsBefore} firings before and ${cp.firingsAfter} after (${c.poolConfig} × ${c.scenario})`,
    );
    return [...worse, ...suspected, ...thresholds, ...behind, ...incomplete, ...changes];
  });
}

type ChangeFiring = NonNullable<
  NotificationPayload['cells'][number]['changePoints']
>[number]['before'];
const firingText = (f: ChangeFiring) => `${f.name}${f.commit ? ` (${f.commit.slice(0, 12)})` : ''}`;

/** The outcome in words, saying which evidence decided a regression. */
function outcomeWords(p: NotificationPayload): string {
  const baseline = p.baseline ? `\`${p.baseline}\`` : '(none set)';
  if (p.outcome === 'regression' && p.decidedBy === 'change-point')
    return `regressed: a change point in its history (not its comparison with baseline ${baseline})`;
  if (p.outcome === 'regression' && p.decidedBy === 'both')
    return `regressed against baseline ${baseline} and in its history (a change point)`;
  return `${OUTCOME_WORDS[p.outcome]} ${baseline}`;
}

const OUTCOME_WORDS: Record<NotificationPayload['outcome'], string> = {
  regression: 'regressed against baseline',
  'suspected-regression': 'suspected of regressing (not yet settled) against baseline',
  pass: 'no regression against baseline',
  'no-baseline': 'finished; no baseline to compare with:',
  incomplete:
    'could not be judged (too few valid runs, or too many crashed or invalid) against baseline',
};

/** The request body: PoolBench's JSON (links made absolute), or a Slack incoming-webhook message. */
export function webhookBody(
  p: NotificationPayload,
  format: 'generic' | 'slack',
  appUrl: string,
  deliveryId: string,
): string {
  const url = `${appUrl.replace(/\/$/, '')}${p.experiment.path}`;
  if (format === 'generic')
    return JSON.stringify({ ...p, delivery: deliveryId, experiment: { ...p.experiment, url } });
  const head = `*${p.schedule.name}*: ${outcomeWords(p)} · <${url}|${p.experiment.name}>`;
  const lines = regressionLines(p).map((l) => `• ${l}`);
  return JSON.stringify({ text: [head, ...lines].join('\n') });
}
