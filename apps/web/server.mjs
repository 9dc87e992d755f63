// The web app's HTTP server: Next.js's own request handler behind one check Next.js cannot make.
// Next.js builds a WHATWG Request for every request (proxy, route handlers), and undici refuses
// to construct one for TRACE, TRACK or CONNECT: Next.js answered those 500 and other unknown
// methods 400. Here every method outside the set Next.js routes is answered 405 with `Allow`
// before Next.js sees it; under /api/v1 it reaches the REST API as a GET marked with
// UNSUPPORTED_METHOD_HEADER, so the API answers 405 problem+json with the path's own `Allow`.
//
// POOLBENCH_WEB_PROCESSES runs that server as N processes on one port (Node's cluster; the
// primary only forks and re-forks). The default is the machine's cores minus one for a worker and
// its load generator on the same machine, at least 1; set it to the core count where the web app
// has a machine of its own. Every process keeps its own caches of immutable results, hears live
// run events and authorization revocations over Redis, and counts rate limits in Redis.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import next from 'next';
import { malformedPathAnswer } from './malformed-path.mjs';
import { webProcesses } from './web-processes.mjs';

const port = Number(process.env.PORT ?? 3000);
// Loopback unless told otherwise: `make up` serves this machine only; a container (the images set
// POOLBENCH_WEB_HOST=0.0.0.0) or a server behind a proxy on another host names its address.
const host = process.env.POOLBENCH_WEB_HOST || '127.0.0.1';

const processes = webProcesses(process.env.POOLBENCH_WEB_PROCESSES);

if (cluster.isPrimary && processes > 1) {
  // the primary serves nothing: it keeps `processes` servers alive and stops them together
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < processes; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`web process ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 500);
  });
  console.log(`PoolBench web: ${processes} processes on http://localhost:${port}`);
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      setTimeout(() => process.exit(0), 16_000).unref(); // after its servers' own bounds
    });
  }
} else {
  // a server whose primary died (kill -9) goes with it rather than holding the port alone
  if (cluster.isWorker) process.on('disconnect', () => process.exit(0));
  await serve();
}

async function serve() {
  const ROUTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
  /**
   * Also in src/server/services/cache/page-bytes-response.ts: a route handler that sends bytes
   * already compressed names their encoding in PASSED_ENCODING, and this server sends it as
   * Content-Encoding (Next.js 16 drops Content-Encoding from route handlers' responses). Requests
   * carry PASS_ENCODING so handlers know; a client-sent one is removed.
   */
  const PASS_ENCODING = 'x-poolbench-pass-encoding';
  const PASSED_ENCODING = 'x-poolbench-content-encoding';
  const passEncoding = (res) => {
    for (const method of ['setHeader', 'appendHeader']) {
      const original = res[method].bind(res);
      res[method] = (name, value) =>
        original(String(name).toLowerCase() === PASSED_ENCODING ? 'Content-Encoding' : name, value);
    }
  };
  /** Also named in src/server/rest/handle-rest.ts; a client-sent one is removed. */
  const UNSUPPORTED_METHOD_HEADER = 'x-poolbench-unsupported-method';

  const app = next({ dev: false, port });
  const handle = app.getRequestHandler();
  await app.prepare();

  /**
   * Registered by src/instrumentation.ts from inside the Next.js build (src/server/fast-path.ts):
   * for a GET it returns what the run page data, compare view or share page route, or a
   * session's run, experiment or compare page, would answer, when this process decided it moments
   * ago from the same caches, or null; then Next.js answers. An answer is `{ status, headers, body }`.
   */
  const fastAnswer = () => globalThis.__poolbenchFastAnswer;
  /**
   * Also registered there: for a GET Next.js is about to answer that the fast path may answer
   * next time (a run, experiment or compare page for a session), `{ maxBytes, done }`; the bytes
   * Next.js sends, with its status and headers, go to `done` once the response has finished.
   */
  const shellCapture = () => globalThis.__poolbenchShellCapture;
  /** Next.js answers; what it sends is kept when the fast path may answer it next time. */
  const nextAnswers = (req, res) => {
    let capture = null;
    try {
      capture = shellCapture()?.(req) ?? null;
    } catch (e) {
      console.error('shell capture failed', e);
    }
    if (capture) collect(res, capture);
    return handle(req, res);
  };
  const collect = (res, capture) => {
    const chunks = [];
    let size = 0;
    let over = false;
    const add = (chunk, encoding) => {
      if (over || chunk == null || typeof chunk === 'function') return;
      const b =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8')
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += b.length;
      if (size > capture.maxBytes) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(Buffer.from(b)); // a copy: the writer may reuse its buffer
    };
    const write = res.write;
    const end = res.end;
    res.write = function (chunk, encoding, cb) {
      add(chunk, encoding);
      return write.call(this, chunk, encoding, cb);
    };
    res.end = function (chunk, encoding, cb) {
      add(chunk, encoding);
      return end.call(this, chunk, encoding, cb);
    };
    res.once('finish', () => {
      if (over) return;
      try {
        capture.done({
          status: res.statusCode,
          headers: res.getHeaders(),
          body: Buffer.concat(chunks),
        });
      } catch (e) {
        console.error('shell capture failed', e);
      }
    });
  };
  /** Writes an answer; a failure before anything was sent hands the request to Next.js. */
  const send = (req, res, answer) => {
    try {
      res.statusCode = answer.status;
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.end(answer.body ?? undefined);
    } catch (e) {
      failed(req, res, e);
    }
  };
  const failed = (req, res, e) => {
    console.error('fast path failed; Next.js answers', e);
    if (res.headersSent) return res.destroy();
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    return handle(req, res);
  };
  const fastOrNext = (req, res) => {
    const fast = fastAnswer();
    if (!fast) return nextAnswers(req, res);
    // what Next.js sets when absent (the share page's guess limiter may read it)
    req.headers['x-forwarded-for'] ??= req.socket.remoteAddress;
    let answer;
    try {
      answer = fast(req);
    } catch (e) {
      return failed(req, res, e);
    }
    if (answer === null) return nextAnswers(req, res);
    if (typeof answer.then !== 'function') return send(req, res, answer);
    answer.then(
      (a) => (a === null ? nextAnswers(req, res) : send(req, res, a)),
      (e) => failed(req, res, e),
    );
  };

  const server = createServer((req, res) => {
    delete req.headers[UNSUPPORTED_METHOD_HEADER];
    req.headers[PASS_ENCODING] = '1';
    passEncoding(res);
    const malformed = malformedPathAnswer(req.url);
    if (malformed) {
      res.writeHead(malformed.status, malformed.headers);
      res.end(malformed.body);
      return;
    }
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
    return method === 'GET' ? fastOrNext(req, res) : handle(req, res);
  });
  // An idle keep-alive connection stays open 65 s, past the 60 s reverse proxies and HTTP
  // clients keep theirs: with Node's 5 s default, a client that reused a connection idle for
  // about 5 s could send its request as the server closed it and get ECONNRESET (a proxy: 502).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(port, host, () =>
    console.log(
      `PoolBench web listening on http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    ),
  );

  // Like `next start`: stop accepting, let open requests finish (at most 10 s: a live stream
  // does not end on its own), then finish what the app held back to write in batches
  // (src/instrumentation.ts registers it; at most 5 s more) and exit.
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    setTimeout(() => process.exit(0), 5_000).unref();
    Promise.resolve()
      .then(() => globalThis.__poolbenchBeforeExit?.())
      .catch((e) => console.error('before exit failed', e))
      .finally(() => process.exit(0));
  };
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      server.close(exit);
      server.closeIdleConnections();
      setTimeout(exit, 10_000).unref();
    });
  }
}
