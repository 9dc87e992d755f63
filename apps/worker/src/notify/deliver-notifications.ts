import { openSecret, openedRanges, parseScheduleNotification, type Db } from '@poolbench/db';
import {
  endpointsOf,
  hasUrlCredentials,
  redactUrl,
  webhookRefusal,
} from '@poolbench/contracts/net';
import type { Logger } from 'pino';
import { RunError } from '../runs/run-error';
import { refuseOwnServices, resolveHostNames } from '../targets/allowlist';
import { pinnedFetch, ProbeRedirectError } from '../targets/pinned-fetch';
import { SIGNATURE_HEADER, signBody, webhookBody } from './webhook-message';

export const MAX_ATTEMPTS = 5;
/** Backoff before attempt n+1 (after n failed): 10 s, 1 min, 5 min, 30 min. */
const BACKOFF_MS = [10_000, 60_000, 300_000, 1_800_000];
const CLAIM_STALE_MS = 120_000;

/** A delivery that no retry can fix (no webhook any more, a URL that may never be called). */
class PermanentDeliveryError extends Error {}

/**
 * Checks every address the webhook host resolves to (`webhookRefusal`: the rule the web app
 * applies when the webhook is saved) and returns the one to connect to (the first resolved). A
 * never-allowed address (link-local, metadata) fails the delivery for good; one that needs an
 * allowlist entry, or a range the installation (`opened`) has not opened, is retried, since an
 * admin may add it.
 */
export async function checkWebhookHost(
  host: string,
  port: number,
  patterns: string[],
  opened: readonly string[],
): Promise<string> {
  const [resolved] = await resolveHostNames([host]);
  try {
    await refuseOwnServices([
      { field: 'webhookUrl', host: resolved!.host, port, addresses: resolved!.addresses },
    ]);
  } catch (err) {
    throw new PermanentDeliveryError((err as Error).message);
  }
  for (const addr of resolved!.addresses) {
    const refusal = webhookRefusal(resolved!.host, addr, patterns, opened);
    if (refusal?.never) throw new PermanentDeliveryError(refusal.message);
    if (refusal) throw new RunError('target_not_allowed', refusal.message);
  }
  return resolved!.addresses[0]!;
}

export interface DeliverOptions {
  /** the app's public URL, for links in messages */
  appUrl: string;
  timeoutMs?: number;
  now?: () => Date;
  /** the key the webhook URL and secret were sealed with (POOLBENCH_SECRET_KEY when unset) */
  secretKey?: Buffer;
}

/** Sends one webhook request; resolves with the HTTP status, throws on anything else. */
async function send(
  url: string,
  body: string,
  secret: string,
  deliveryId: string,
  event: string,
  patterns: string[],
  opened: readonly string[],
  now: Date,
  timeoutMs: number,
): Promise<number> {
  const { protocol } = new URL(url);
  if (hasUrlCredentials(url))
    throw new PermanentDeliveryError(
      'the webhook URL carries credentials; set a URL without user:password@',
    );
  if (protocol !== 'https:' && protocol !== 'http:')
    throw new PermanentDeliveryError(`the webhook URL must be http or https, not ${protocol}`);
  const { host, port } = endpointsOf([url])[0]!;
  const address = await checkWebhookHost(host, port, patterns, opened);
  const t = Math.floor(now.getTime() / 1000);
  const res = await pinnedFetch(url, [{ host, port, address }], {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'PoolBench-Webhook/1',
      'X-PoolBench-Event': event,
      'X-PoolBench-Delivery': deliveryId,
      [SIGNATURE_HEADER]: signBody(secret, body, t),
    },
    body,
    timeoutMs,
    maxBytes: 200,
  });
  return res.status;
}

/**
 * Delivers due notifications: claims up to `limit` (pending and due, or claimed by a worker that
 * died more than two minutes ago) with FOR UPDATE SKIP LOCKED, so two workers never send the same
 * one at once; sends each to its schedule's webhook, signed; records the answer. A 2xx is
 * delivered; anything else (an error status, a redirect — never followed —, a refused address,
 * a timeout) is retried with backoff up to MAX_ATTEMPTS, then failed with the last error.
 * Delivery is at least once: receivers dedupe on X-PoolBench-Delivery.
 */
export async function deliverDueNotifications(
  db: Db,
  log: Pick<Logger, 'info' | 'warn'>,
  opts: DeliverOptions,
  limit = 5,
): Promise<number> {
  const now = opts.now?.() ?? new Date();
  const claimed = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE "ScheduleNotification" SET status = 'sending', "claimedAt" = ${now}, attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM "ScheduleNotification"
        WHERE (status = 'pending' AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${now}))
           OR (status = 'sending' AND "claimedAt" < ${new Date(now.getTime() - CLAIM_STALE_MS)})
        ORDER BY "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
     RETURNING id`;
  const opened = claimed.length > 0 ? await openedRanges(db) : [];
  for (const { id } of claimed) {
    const row = await db.scheduleNotification.findUniqueOrThrow({
      where: { id },
      select: {
        id: true,
        attempts: true,
        payload: true,
        schedule: {
          select: {
            webhookUrlSealed: true,
            webhookSecretSealed: true,
            webhookFormat: true,
            team: { select: { allowedHosts: { select: { pattern: true } } } },
          },
        },
      },
    });
    const n = parseScheduleNotification(row);
    const s = n.schedule;
    let status: number | null = null;
    let error: string | null = null;
    let permanent = false;
    try {
      if (!n.payload) throw new PermanentDeliveryError('the stored payload does not parse');
      if (!s.webhookUrlSealed || !s.webhookSecretSealed)
        throw new PermanentDeliveryError('the schedule no longer has a webhook');
      const url = openSecret<string>(s.webhookUrlSealed, opts.secretKey);
      const secret = openSecret<string>(s.webhookSecretSealed, opts.secretKey);
      const body = webhookBody(n.payload, s.webhookFormat, opts.appUrl, n.id);
      status = await send(
        url,
        body,
        secret,
        n.id,
        n.payload.event,
        s.team.allowedHosts.map((h) => h.pattern),
        opened,
        now,
        opts.timeoutMs ?? 10_000,
      );
      if (status < 200 || status >= 300) error = `the webhook answered HTTP ${status}`;
    } catch (err) {
      permanent = err instanceof PermanentDeliveryError;
      const message = err instanceof Error ? err.message : String(err);
      // The error is shown in the schedules list: it names the host at most, never the URL (a
      // Slack webhook's path is its credential) nor where a redirect pointed.
      error =
        err instanceof ProbeRedirectError
          ? `the webhook answered HTTP ${err.status} (a redirect); PoolBench does not follow redirects: set the final URL`
          : err instanceof RunError || permanent
            ? message
            : redactUrl(message);
    }
    const done = error === null;
    const giveUp = !done && (permanent || n.attempts >= MAX_ATTEMPTS);
    await db.scheduleNotification.update({
      where: { id },
      data: {
        status: done ? 'delivered' : giveUp ? 'failed' : 'pending',
        lastStatusCode: status,
        lastError: error,
        deliveredAt: done ? now : null,
        claimedAt: null,
        nextAttemptAt:
          done || giveUp
            ? null
            : new Date(
                now.getTime() + BACKOFF_MS[Math.min(n.attempts - 1, BACKOFF_MS.length - 1)]!,
              ),
      },
    });
    if (done) log.info({ notificationId: id, status }, 'webhook delivered');
    else
      log.warn(
        { notificationId: id, attempt: n.attempts, error, giveUp },
        'webhook delivery failed',
      );
  }
  return claimed.length;
}
