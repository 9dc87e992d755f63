import { defaultRestDeps } from '~/server/rest/default-deps';
import { handleRest } from '~/server/rest/handle-rest';

export const dynamic = 'force-dynamic';

// One catch-all: the operation table in server/rest routes and documents every endpoint (and
// answers OPTIONS and unsupported methods with the path's own Allow).
const handler = (req: Request) => handleRest(req, defaultRestDeps());
export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as OPTIONS,
};
