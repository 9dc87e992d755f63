import type { Db } from '@poolbench/db';
import { ProblemError } from '~/server/rest/problem';

/**
 * Share links belong to the compare/share service (issue 7); until it exists this route answers
 * 501 rather than growing a second share-link implementation here.
 */
export async function createCiShareLink(_db: Db, _input: { teamId: string; userId: string; experimentId: string; baseUrl: string; expiresInDays?: number }): Promise<{ url: string; expiresAt: string | null }> {
  throw new ProblemError('not_implemented', 'share links are not available yet in this PoolBench version; open the experiment URL instead');
}
