import { createContext } from '~/server/api/create-context';
import { handleTrpc } from '~/server/api/handle-trpc';

export const dynamic = 'force-dynamic';

const handler = (request: Request) =>
  handleTrpc(request, (req) => createContext({ headers: req.headers, overHttp: true }));

export { handler as GET, handler as POST };
