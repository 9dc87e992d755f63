// The web app's HTTP server: Next.js's own request handler behind one check Next.js cannot make.
// Next.js builds a WHATWG Request for every request (proxy, route handlers), and undici refuses
// to construct one for TRACE, TRACK or CONNECT: Next.js answered those 500 and other unknown
// methods 400. Here every method outside the set Next.js routes is answered 405 with `Allow`
// before Next.js sees it; under /api/v1 it reaches the REST API as a GET marked with
// UNSUPPORTED_METHOD_HEADER, so the API answers 405 problem+json with the path's own `Allow`.
import { createServer } from 'node:http';
import next from 'next';

const port = Number(process.env.PORT ?? 3000);
const ROUTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Also named in src/server/rest/handle-rest.ts; a client-sent one is removed. */
const UNSUPPORTED_METHOD_HEADER = 'x-poolbench-unsupported-method';

const app = next({ dev: false, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  delete req.headers[UNSUPPORTED_METHOD_HEADER];
  const method = (req.method ?? '').toUpperCase();
  if (!ROUTED.has(method)) {
    if ((req.url ?? '').startsWith('/api/v1/')) {
      req.headers[UNSUPPORTED_METHOD_HEADER] = method.slice(0, 32);
      req.method = 'GET';
      return handle(req, res);
    }
    res.writeHead(405, {
      Allow: [...ROUTED].join(', '),
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    res.end(`${method} is not supported\n`);
    return;
  }
  return handle(req, res);
});
server.listen(port, () => console.log(`PoolBench web listening on http://localhost:${port}`));

// Like `next start`: stop accepting, let open requests finish, then exit.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
