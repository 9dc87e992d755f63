import { createHmac } from 'node:crypto';
import type { NotificationPayload } from '@poolbench/db';

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

/** One line per regressed metric: "p99 latency +210 % [+180 %, +240 %] (pool × scenario)". */
export function regressionLines(p: NotificationPayload): string[] {
  return p.cells.flatMap((c) =>
    c.metrics
      .filter((m) => m.verdict === 'worse')
      .map((m) => {
        const ch = m.changePercent
          ? ` ${pct(m.changePercent.estimate)} [${pct(m.changePercent.lower)}, ${pct(m.changePercent.upper)}]`
          : '';
        return `${m.label}${ch} (${c.poolConfig} × ${c.scenario}, ${c.candidateRuns} vs ${c.baselineRuns} runs)`;
      }),
  );
}

const OUTCOME_WORDS: Record<NotificationPayload['outcome'], string> = {
  regression: 'regressed against baseline',
  pass: 'no regression against baseline',
  'no-baseline': 'finished; no baseline to compare with:',
  incomplete: 'finished without enough measured runs to compare with baseline',
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
  const head = `*${p.schedule.name}*: ${OUTCOME_WORDS[p.outcome]} ${p.baseline ? `\`${p.baseline}\`` : '(none set)'} · <${url}|${p.experiment.name}>`;
  const lines = regressionLines(p).map((l) => `• ${l}`);
  return JSON.stringify({ text: [head, ...lines].join('\n') });
}
