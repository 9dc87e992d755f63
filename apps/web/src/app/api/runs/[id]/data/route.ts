import { pageDataResponse } from '~/server/services/cache/page-data-response';
import { RUN_PAGE_DATA } from '~/server/services/runs/run-page-data';

export const dynamic = 'force-dynamic';

/**
 * The run page's data in one request, outside tRPC's batching: `{ run, series }` as superjson.
 * A finished run answers the same compressed bytes from memory with a strong ETag (304 on
 * revalidation); a live run is computed per request and never stored by the browser. Authorized
 * by session and team like every procedure (cached for at most AUTH_CACHE_MAX_MS).
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return pageDataResponse(req, RUN_PAGE_DATA, (await params).id);
}
