import { env } from '~/server/env';
import { buildOpenApi } from '~/server/rest/openapi';

export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json(buildOpenApi(env.BETTER_AUTH_URL.replace(/\/$/, '')), {
    headers: { 'Cache-Control': 'no-store' },
  });
}
