import { lookup } from 'node:dns/promises';
import { openedRanges, type Db } from '@poolbench/db';
import { parseIp, webhookRefusal } from '@poolbench/contracts/net';
import { InvalidInputError } from '../errors';
import { refuseOwnServiceUrl } from '../targets/refuse-own-service';

const LOOKUP_TIMEOUT_MS = 2000;

/**
 * The webhook rule of delivery (`webhookRefusal`), applied when the webhook is saved, so a URL
 * that would never be delivered is refused with the allowlist entry it needs instead of failing
 * later in the schedules list. A host name is resolved here; if it does not resolve (yet, or
 * only from the workers' network), it is saved and each delivery checks again.
 */
export async function checkWebhookUrl(db: Db, teamId: string, url: string): Promise<void> {
  await refuseOwnServiceUrl('webhookUrl', url);
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = parseIp(host) ? [host] : await resolve(host);
  if (addresses.length === 0) return;
  const [rows, opened] = await Promise.all([
    db.allowedHost.findMany({ where: { teamId }, select: { pattern: true } }),
    openedRanges(db),
  ]);
  const patterns = rows.map((r) => r.pattern);
  for (const address of addresses) {
    const refusal = webhookRefusal(host, address, patterns, opened);
    if (refusal) throw new InvalidInputError('webhookUrl', refusal.message);
  }
}

async function resolve(host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((r) => {
    timer = setTimeout(() => r([]), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      lookup(host, { all: true }).then(
        (rs) => rs.map((r) => r.address),
        () => [],
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
