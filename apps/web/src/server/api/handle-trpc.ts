import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { limitTrpcBody } from '~/server/security/limit-trpc-body';
import type { Context } from './context';
import { appRouter } from './root';

/** /api/trpc: the body limit first (413 PAYLOAD_TOO_LARGE in tRPC's error shape), then the router. */
export async function handleTrpc(
  request: Request,
  createContext: (req: Request) => Promise<Context> | Context,
): Promise<Response> {
  const { req, tooLarge } = await limitTrpcBody(request);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: () => {
      if (tooLarge) throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: tooLarge });
      return createContext(req);
    },
    onError({ error, path }) {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        console.error(`tRPC ${path ?? '?'} failed:`, error.cause ?? error);
    },
  });
}
