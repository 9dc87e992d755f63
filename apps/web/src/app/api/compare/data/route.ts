import { pageDataResponse } from '~/server/services/cache/page-data-response';
import { COMPARE_PAGE_DATA } from '~/server/services/compare/compare-view';

export const dynamic = 'force-dynamic';

/**
 * The compare view's data in one request, outside tRPC (what `compare.get` answers), for the
 * compare page's own query string (`items`, `baseline`, `from`, `to`, `floor`). A comparison of
 * finished runs answers the same compressed bytes from memory under a strong ETag (304 on
 * revalidation). Authorized by session and team like every procedure.
 */
export const GET = (req: Request) => pageDataResponse(req, COMPARE_PAGE_DATA);
