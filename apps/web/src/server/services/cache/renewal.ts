/**
 * Renewal ahead of the end. An answer kept for a bounded time (a session, a team, a recent page)
 * is renewed during the last quarter of that time by one request that goes the full way, while
 * the others are still answered from memory. Without it every request arriving between the end
 * and the first renewal goes the full way; under a crowd they queue behind one another, each
 * making the next slower, and the server falls over from its own cache expiring.
 */
export const RENEW_FRACTION = 0.25;
/** How soon another request is sent the full way if the one sent has not renewed the answer. */
export const RENEW_RETRY_MS = 250;

export interface Renewable {
  /** the answer is not used from this time on */
  until: number;
  /** from this time on one request at a time goes the full way to renew it */
  renewAt: number;
  /** when a request was last sent to renew it */
  sentAt: number | null;
}

export const renewable = (start: number, until: number): Renewable => ({
  until,
  renewAt: until - (until - start) * RENEW_FRACTION,
  sentAt: null,
});

/**
 * For a reader that cannot renew the answer itself (server.mjs's fast path): true while it may be
 * used. In its last quarter, false for one request every `RENEW_RETRY_MS`, which then goes the
 * full way and renews it; true for the others until its end.
 */
export function useOrSendToRenew(e: Renewable, now: number): boolean {
  if (now >= e.until) return false;
  if (now < e.renewAt) return true;
  if (e.sentAt !== null && now - e.sentAt < RENEW_RETRY_MS) return true;
  e.sentAt = now;
  return false;
}
