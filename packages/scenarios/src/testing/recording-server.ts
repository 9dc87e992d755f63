import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  bodyBytes: number;
  /** the body as text, first 64 KiB */
  body: string;
  atMs: number;
}

/**
 * A local HTTP target that records what arrives. `/fail` answers 503 like an exhausted pool;
 * for flows, `POST /login` ({"username", "password": "pw-<username>"}) answers
 * `{"token": "tok-<username>"}` (401 otherwise), `GET /me` with `Authorization: Bearer
 * tok-<username>` answers `{"name": "<username>"}` (401 otherwise), and `/hostile` answers values
 * that try to break out of where a variable goes; everything else 200 `{"ok":true}`.
 */
export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function route(
  method: string,
  path: string,
  authorization: string | undefined,
  body: string,
): [number, unknown] {
  if (path === '/fail') return [503, { error: 'pool_acquire_timeout' }];
  if (method === 'POST' && path === '/login') {
    let login: { username?: unknown; password?: unknown };
    try {
      login = JSON.parse(body) as typeof login;
    } catch {
      return [400, { error: 'bad_login' }];
    }
    return typeof login.username === 'string' && login.password === `pw-${login.username}`
      ? [200, { token: `tok-${login.username}`, user: { name: login.username } }]
      : [401, { error: 'bad_credentials' }];
  }
  if (path === '/me') {
    const m = /^Bearer tok-(.+)$/.exec(authorization ?? '');
    return m ? [200, { name: m[1] }] : [401, { error: 'unauthorized' }];
  }
  if (path === '/hostile')
    return [200, { crlf: 'a\r\nX-Injected: 1', quote: 'say "hi"\\', dots: '../../admin?x=1#f' }];
  return [200, { ok: true }];
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let bodyBytes = 0;
    let body = '';
    req.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length;
      if (body.length < 65_536) body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      requests.push({
        method: req.method ?? '',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        bodyBytes,
        body,
        atMs: Date.now(),
      });
      const [status, answer] = route(req.method ?? '', u.pathname, req.headers.authorization, body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-request-id': `r${requests.length}`,
      });
      res.end(JSON.stringify(answer));
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
