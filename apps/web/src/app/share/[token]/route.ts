import { db } from '~/server/db';
import { shareLimiter } from '~/server/services/share-links/limiter-instance';
import { sharedPageResponse } from '~/server/services/share-links/shared-response';

export const dynamic = 'force-dynamic';

/**
 * A route handler rather than a page: it must answer real 404 and 429 statuses and send its own
 * Referrer-Policy / X-Robots-Tag / CSP headers, and the shared view is static HTML (no client JS).
 */
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return sharedPageResponse({ db, limiter: shareLimiter }, token, req.headers);
}
