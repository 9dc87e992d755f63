import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { db } from './db';
import { peekSession, peekTeam } from './auth-cache';
import { securityHeaders } from './security/headers';
import {
  FAST_PATH_TIMING,
  pageBytesAnswer,
  type Answer,
} from './services/cache/page-bytes-response';
import type { PageData } from './services/cache/page-data';
import type { HeaderReader } from './services/cache/finished-data-cache';
import { COMPARE_PAGE_DATA } from './services/compare/compare-view';
import { RUN_PAGE_DATA } from './services/runs/run-page-data';
import { processShells, SHELL_MAX_BYTES, shellKey, shellsOn } from './services/cache/shell-pages';
import { shareLimiter } from './services/share-links/limiter-instance';
import { recentSharedPage } from './services/share-links/shared-response';
import { ID_SOURCE } from '~/lib/schemas/ids';

/** A request as server.mjs holds it, before Next.js builds anything from it. */
export interface FastRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
}

const RUN_DATA = new RegExp(`^/api/runs/(${ID_SOURCE})/data$`);
const SHARE_PAGE = /^\/share\/([A-Za-z0-9_-]{1,128})$/;

/** Node's request headers read like a WHATWG `Headers` (repeated ones joined as `Headers` joins them). */
export function nodeHeaders(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name: string) {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
}

/** The signed-in request's team, if this process decided both within the bound. */
function recentTeam(headers: HeaderReader) {
  const cookie = headers.get('cookie');
  const session = cookie ? peekSession(cookie) : undefined;
  return session ? peekTeam(session.user.id, session.activeTeamId) : undefined;
}

const AUTH = { peekSession, peekTeam };

/** A page's data as its route would answer it, when this process already holds it for the team. */
function recentPageData<K>(
  page: PageData<K>,
  pathId: string | null,
  query: string,
  headers: HeaderReader,
): Answer | null {
  const team = recentTeam(headers);
  if (!team) return null;
  const ask = page.ask(pathId, new URLSearchParams(query));
  const bytes = ask === 'not-found' || 'error' in ask ? undefined : page.recent(team.id, ask);
  return bytes ? pageBytesAnswer(headers, bytes) : null;
}

/** What the routes answer, from memory alone: null wherever a route would read anything. */
function answerFromMemory(
  req: FastRequest,
  path: string,
  query: string,
  headers: HeaderReader,
  nonce: string,
): Answer | null | Promise<Answer | null> {
  const shell = shellsOn() ? shellKey(req.method, req.url, headers) : null;
  if (shell) return processShells(AUTH).answer(shell, headers, nonce);
  const run = RUN_DATA.exec(path);
  if (run) return recentPageData(RUN_PAGE_DATA, run[1]!, query, headers);
  if (path === '/api/compare/data') return recentPageData(COMPARE_PAGE_DATA, null, query, headers);
  const share = SHARE_PAGE.exec(path);
  if (share) return recentSharedPage({ db, limiter: shareLimiter }, share[1]!, headers);
  return null;
}

const withSecurityHeaders = (
  path: string,
  headers: HeaderReader,
  a: Answer,
  nonce: string,
): Answer => {
  // as Next.js decides the protocol the proxy sees (HSTS only over https)
  const https = (headers.get('x-forwarded-proto') ?? '').includes('https');
  // as Next.js merges them: the proxy's headers win over a route's own (src/proxy.ts)
  return {
    ...a,
    headers: {
      ...a.headers,
      ...securityHeaders(path, { nonce, https }),
      'Server-Timing': FAST_PATH_TIMING,
    },
  };
};

/**
 * server.mjs asks this before Next.js for every GET: the answers the run page data, compare view
 * and share page routes would give, when this process decided them within `AUTH_CACHE_MAX_MS`
 * (the session and team from the authorization cache, the page from the recent pages of a
 * finished run, comparison or share link), and the HTML of a run, experiment or compare page this
 * process rendered for the same session and address within that bound (shell-pages.ts). Null, or a promise of null, hands the request to
 * Next.js, whose routes decide it in full and fill what this reads. A crowd on one result then
 * costs a hash lookup per request instead of Next.js's routing, proxy and `Request` objects.
 */
export function fastAnswer(req: FastRequest): Answer | null | Promise<Answer | null> {
  if (req.method !== 'GET' || !req.url) return null;
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const query = q < 0 ? '' : req.url.slice(q + 1);
  const headers = nodeHeaders(req.headers);
  // one nonce per answer: in its Content-Security-Policy and, for a kept page, in its HTML
  const nonce = randomBytes(16).toString('base64');
  const a = answerFromMemory(req, path, query, headers, nonce);
  if (a === null) return null;
  if (a instanceof Promise)
    return a.then((answer) => answer && withSecurityHeaders(path, headers, answer, nonce));
  return withSecurityHeaders(path, headers, a, nonce);
}

/** What server.mjs does with what Next.js answers a request it may keep (a shell page). */
export interface ShellCapture {
  maxBytes: number;
  done(res: {
    status: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: Buffer;
  }): void;
}

/**
 * server.mjs asks this before it hands a GET to Next.js: for a shell page requested with a session
 * cookie, where to put the answer Next.js gives, so the same session's next requests for it are
 * answered from memory (shell-pages.ts); otherwise null.
 */
export function shellCapture(req: FastRequest): ShellCapture | null {
  if (!shellsOn()) return null;
  const shell = shellKey(req.method, req.url, nodeHeaders(req.headers));
  if (!shell) return null;
  const shells = processShells(AUTH);
  const ticket = shells.ticket();
  return { maxBytes: SHELL_MAX_BYTES, done: (res) => void shells.store(shell, ticket, res) };
}
