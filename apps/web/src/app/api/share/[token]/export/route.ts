import { db } from '~/server/db';
import { shareLimiter } from '~/server/services/share-links/limiter-instance';
import { sharedExportResponse } from '~/server/services/share-links/shared-response';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return sharedExportResponse({ db, limiter: shareLimiter }, token, new URL(req.url), req.headers);
}
