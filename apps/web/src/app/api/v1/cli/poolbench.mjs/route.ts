import { serveCliBundle } from '~/server/cli-bundle/serve-cli-bundle';
import { env } from '~/server/env';

export const dynamic = 'force-dynamic';

// The CI CLI in one file, so pipelines fetch it from their own PoolBench instead of npm:
// curl -fsSL "$POOLBENCH_URL/api/v1/cli/poolbench.mjs" -o poolbench.mjs && node poolbench.mjs run ...
const handler = (req: Request) => serveCliBundle(req, env.POOLBENCH_CLI_DIR);
export { handler as GET, handler as HEAD };
