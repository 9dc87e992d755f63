import type { Db } from '@poolbench/db';
import { buildComparison } from '../compare/build-comparison';
import { buildExport } from '../exports/build-export';
import { download, parseFormat, problem, slug } from '../exports/http';
import { headline, renderReportHtml } from '../exports/report-html';
import { esc } from '../exports/escape';
import type { GuessLimiter } from './rate-limit';
import { openSharedView } from './shared-view';
import { SHARE_HEADERS } from '~/server/security/headers';
import {
  fingerprint,
  LruCache,
  notModified,
  pageCacheOn,
  RecentPages,
  type HeaderReader,
  type RecentTicket,
} from '../cache/finished-data-cache';
import { keptAnswerMs, onRevocation } from '../auth/auth-cache';
import { countView } from './resolve-share-link';
import {
  answerResponse,
  storedBody,
  storedText,
  type Answer,
  type StoredText,
} from '../cache/page-bytes-response';
import { processWide } from '../../process-wide';
import { hashShareToken } from './token';

export interface SharePageDeps {
  db: Db;
  limiter: GuessLimiter;
  /** the clock a token's recent view is kept by; default Date.now (a test moves it) */
  now?: () => number;
}

// rendered pages by ETag: a shared report of finished runs is the same HTML for every viewer
const pages = processWide('share-pages', () => new LruCache<StoredText>(200));

/**
 * A token's resolved page for at most `AUTH_CACHE_MAX_MS` (never past the link's expiry), under
 * the token's hash and owned by the link: views arriving meanwhile skip the link lookup and every
 * read behind the page. Revoking the link forgets it at once here and, over Redis, in the other
 * web processes (`onRevocation`).
 */
const recentViews = processWide('share-recent', () => new RecentPages(1000));

/** Forget a link's recent view in this process (its revocation is immediate here). */
export function forgetSharedLink(linkId: string): void {
  recentViews.forget(linkId);
}
onRevocation('share-links', (r) => {
  if (r.shareLinkId) forgetSharedLink(r.shareLinkId);
});

function htmlAnswer(reqHeaders: HeaderReader, page: StoredText, etag: string): Answer {
  const { body, headers } = storedBody(reqHeaders, page, 'private, no-cache');
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      ...SHARE_HEADERS,
      ETag: etag,
      ...headers,
    },
    body,
  };
}

function messagePage(status: number, title: string, text: string): Answer {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)} · PoolBench</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f8fafc;font:15px/1.5 ui-sans-serif,system-ui,sans-serif;color:#0f172a}.b{background:#fff;border:1px solid #e2e8f0;border-radius:14px;padding:32px 36px;max-width:440px;text-align:center}h1{font-size:20px;margin:0 0 8px}p{color:#64748b;margin:0}.c{font-size:44px;font-weight:700;color:#cbd5e1}</style></head>
<body><div class="b"><div class="c">${status}</div><h1>${esc(title)}</h1><p>${esc(text)}</p></div></body></html>`;
  return {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      ...SHARE_HEADERS,
      ...(status === 429 ? { 'Retry-After': '600' } : {}),
    },
    body: html,
  };
}

const notModifiedShare = (etag: string): Answer => ({
  status: 304,
  headers: { ...SHARE_HEADERS, ETag: etag, 'Cache-Control': 'private, no-cache' },
  body: null,
});

/** The page of a recent view (the view is counted), or null; never to a client out of guesses. */
async function answerRecentView(
  deps: { db: Db; limiter: GuessLimiter },
  recent: { owner: string; etag: string } | undefined,
  headers: HeaderReader,
): Promise<Answer | null> {
  const html = recent ? pages.get(recent.etag) : undefined;
  if (!recent || html === undefined) return null;
  if (await deps.limiter.blocked(deps.limiter.clientKey(headers))) return null;
  void countView(deps.db, recent.owner).catch(() => undefined);
  if (notModified(headers, recent.etag)) return notModifiedShare(recent.etag);
  return htmlAnswer(headers, html, recent.etag);
}

/**
 * server.mjs's fast path: the page of a link this process resolved within the bound, answered
 * from memory, or null (then the route answers, and renews it in the bound's last quarter).
 */
export async function recentSharedPage(
  deps: SharePageDeps,
  token: string,
  headers: HeaderReader,
): Promise<Answer | null> {
  if (!pageCacheOn()) return null;
  const now = deps.now ?? Date.now;
  const key = hashShareToken(token);
  const decision = recentViews.decision(key, now());
  // a route is deciding this link right now: its answer, kept, is this request's too (a route
  // that is slower than the bound, or finds no page, leaves the request to a route of its own)
  if (decision) await Promise.race([decision, sleep(keptAnswerMs())]);
  return answerRecentView(deps, recentViews.getOrSendToRenew(key, now()), headers);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** GET /share/<token>: the shared results as one server-rendered page, working signed out. */
export async function sharedPageAnswer(
  deps: SharePageDeps,
  token: string,
  headers: HeaderReader,
  now = new Date(),
): Promise<Answer> {
  const key = hashShareToken(token);
  const ticket = recentViews.ticket((deps.now ?? Date.now)());
  const held = pageCacheOn() ? recentViews.get(key, ticket.at) : undefined;
  // said before the first await, so requests arriving from now on wait for this one
  const done = held || !pageCacheOn() ? () => {} : recentViews.decide(key);
  try {
    const recent = await answerRecentView(deps, held, headers);
    if (recent) return recent;
    return await decideSharedPage(deps, token, headers, now, key, ticket);
  } finally {
    done();
  }
}

async function decideSharedPage(
  deps: { db: Db; limiter: GuessLimiter },
  token: string,
  headers: HeaderReader,
  now: Date,
  key: string,
  ticket: RecentTicket,
): Promise<Answer> {
  const client = deps.limiter.clientKey(headers);
  const view = await openSharedView(deps, token, client, { count: true });
  if (view.status === 429)
    return messagePage(
      429,
      'Too many attempts',
      view.budget === 'client'
        ? 'Too many unknown links were opened from your address. Try again in a few minutes.'
        : 'Too many unknown links were opened recently. Check the link, or try again in a few minutes.',
    );
  if (view.status === 404) recentViews.delete(key);
  if (view.status === 404)
    return messagePage(
      404,
      'Link not found',
      'This share link does not exist, was revoked, or has expired. Ask its owner for a new one.',
    );
  // no-cache: a browser revalidates every time (a revoked link must stop showing), and
  // gets 304 without the page when nothing it shows changed
  const etag = `"${fingerprint({ v: view.version, link: { id: view.link.id, title: view.link.title, expiresAt: view.link.expiresAt }, pivot: view.pivot, hypotheses: view.hypotheses?.map((h) => [h.status, h.decidedAt]) })}"`;
  const remember = () => {
    if (!pageCacheOn()) return;
    const expires = view.link.expiresAt?.getTime() ?? Infinity;
    recentViews.remember(
      key,
      view.link.id,
      etag,
      ticket,
      Math.min(ticket.at + keptAnswerMs(), expires),
    );
  };
  if (pageCacheOn() && notModified(headers, etag)) {
    if (pages.get(etag) !== undefined) remember();
    return notModifiedShare(etag);
  }
  const cached = pageCacheOn() ? pages.get(etag) : undefined;
  if (cached) {
    remember();
    return htmlAnswer(headers, cached, etag);
  }
  const base = `/api/share/${token}/export`;
  const html = renderReportHtml(view.comparison, {
    title: view.link.title,
    subtitle: `${view.subtitle} · ${headline(view.comparison)}`,
    description: headline(view.comparison),
    badge: view.link.expiresAt
      ? `Shared read-only · expires ${view.link.expiresAt.toISOString().slice(0, 10)}`
      : 'Shared read-only',
    generatedAt: now,
    pivot: view.pivot,
    hypotheses: view.hypotheses,
    links: [
      { href: `${base}?format=csv`, label: 'CSV' },
      { href: `${base}?format=json`, label: 'JSON' },
      { href: `${base}?format=html`, label: 'Offline report' },
    ],
  });
  if (pageCacheOn()) {
    const stored = storedText(html);
    pages.set(etag, stored);
    remember();
    return htmlAnswer(headers, stored, etag);
  }
  return {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...SHARE_HEADERS },
    body: html,
  };
}

export const sharedPageResponse = async (
  deps: SharePageDeps,
  token: string,
  headers: HeaderReader,
  now = new Date(),
): Promise<Response> => answerResponse(await sharedPageAnswer(deps, token, headers, now));

/**
 * GET /api/share/<token>/export?format=…[&run=<id>]: downloads of exactly what the link shows.
 * `run` narrows to one run, and only to a run the link itself shows; any other id is a 404.
 */
export async function sharedExportResponse(
  deps: { db: Db; limiter: GuessLimiter },
  token: string,
  url: URL,
  headers: Headers,
): Promise<Response> {
  const format = parseFormat(url.searchParams.get('format'));
  if (!format)
    return problem(400, 'bad_request', 'needs format=csv|summary-csv|json|html', SHARE_HEADERS);
  const view = await openSharedView(deps, token, deps.limiter.clientKey(headers), {
    maxPoints: 600,
  });
  if (view.status === 429)
    return problem(
      429,
      'too_many_requests',
      view.budget === 'client'
        ? 'too many unknown share links from this address'
        : 'too many unknown share links recently; check the link',
      { ...SHARE_HEADERS, 'Retry-After': '600' },
    );
  if (view.status === 404) return problem(404, 'not_found', 'share link not found', SHARE_HEADERS);
  let c = view.comparison;
  const run = url.searchParams.get('run');
  if (run !== null) {
    if (!c.groups.some((g) => g.runIds.includes(run)))
      return problem(404, 'not_found', 'run not found', SHARE_HEADERS);
    c = await buildComparison(
      deps.db,
      view.link.teamId,
      { items: [{ kind: 'run', runId: run }] },
      { maxPoints: 600 },
    );
  }
  const out = await buildExport(deps.db, c, format, { title: view.link.title, pivot: view.pivot });
  return download(
    out.body,
    out.contentType,
    `${slug(view.link.title)}.${out.extension}`,
    SHARE_HEADERS,
  );
}
