import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { pageCacheOn, type HeaderReader } from './finished-data-cache';
import {
  PASSED_ENCODING_HEADER,
  acceptsGzip,
  PASS_ENCODING_HEADER,
  type Answer,
} from './page-bytes-response';
import { renewable, useOrSendToRenew, type Renewable } from './renewal';
import { processWide } from '../../process-wide';
import { keptAnswerMs, onRevocation, type Revocation } from '../auth/auth-cache';
import { ID_SOURCE } from '~/lib/schemas/ids';

/**
 * The signed-in pages whose HTML is a shell: the run, experiment and compare pages render no
 * result (their client components load it from the cached data routes), so the HTML a session
 * got for one of them is what that session gets again a moment later. server.mjs keeps the HTML
 * Next.js rendered for a session and answers the same session's next requests for the same
 * address from it, for at most `AUTH_CACHE_MAX_MS` and only while the authorization cache holds
 * that session and its team (the same bound, and the same revocations, as every other answer
 * from memory). Each answer gets a nonce of its own: the kept HTML's nonce is replaced.
 */
const SHELL_PATH = new RegExp(`^/(?:runs/${ID_SOURCE}|experiments/${ID_SOURCE}|compare)$`);
/** HTML past this size is not kept (a shell is tens of KiB). */
export const SHELL_MAX_BYTES = 1 << 20;

interface Shell extends Renewable {
  /** the HTML split at its nonce: joined with a fresh one per answer */
  parts: string[];
  headers: Record<string, string>;
  sessionId: string;
  userId: string;
  activeTeamId: string | null;
}

interface Session {
  sessionId: string;
  user: { id: string };
  activeTeamId: string | null;
}

/** What the fast path and the capture read from the authorization cache. */
export interface ShellAuth {
  peekSession(cookie: string): Session | null | undefined;
  peekTeam(userId: string, activeTeamId: string | null): { id: string } | null | undefined;
}

/** A document request for a shell page with a session cookie; null when it is not one. */
export function shellKey(
  method: string | undefined,
  url: string | undefined,
  headers: HeaderReader,
): { key: string; cookie: string } | null {
  if (method !== 'GET' || !url) return null;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!SHELL_PATH.test(path)) return null;
  // React Server Component requests of client-side navigations depend on the router's state
  if (headers.get('rsc') !== null || headers.get('next-router-state-tree') !== null) return null;
  if (q >= 0 && /(?:^|&)_rsc=/.test(url.slice(q + 1))) return null;
  const cookie = headers.get('cookie');
  if (!cookie) return null;
  const key = createHash('sha256').update(cookie).update('\n').update(url).digest('base64url');
  return { key, cookie };
}

/**
 * The kept shells of this process, by session cookie and address. A capture started before a
 * revocation (sign-out, a membership or role change) stores nothing: its render may predate it.
 */
export class ShellPages {
  private readonly map = new Map<string, Shell>();
  private generation = 0;
  constructor(
    private readonly auth: ShellAuth,
    private readonly max = 500,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept shell for this request with `nonce` in it, while its session and team are held. */
  answer(
    req: { key: string; cookie: string },
    headers: HeaderReader,
    nonce: string,
  ): Answer | null {
    const shell = this.map.get(req.key);
    if (!shell) return null;
    const now = this.now();
    if (shell.until <= now) {
      this.map.delete(req.key);
      return null;
    }
    const session = this.auth.peekSession(req.cookie);
    if (
      !session ||
      session.sessionId !== shell.sessionId ||
      session.activeTeamId !== shell.activeTeamId ||
      !this.auth.peekTeam(session.user.id, session.activeTeamId)
    )
      return null;
    if (!useOrSendToRenew(shell, now)) return null;
    const html = shell.parts.join(nonce);
    const gzip =
      headers.get(PASS_ENCODING_HEADER) === '1' && acceptsGzip(headers.get('accept-encoding'));
    return {
      status: 200,
      headers: gzip ? { ...shell.headers, [PASSED_ENCODING_HEADER]: 'gzip' } : { ...shell.headers },
      body: gzip ? gzipSync(html, { level: 1 }) : html,
    };
  }

  /** Taken before Next.js renders: `store` keeps nothing if anything was revoked since. */
  ticket(): { generation: number; at: number } {
    return { generation: this.generation, at: this.now() };
  }

  /**
   * Keeps what Next.js answered a shell request, when it is a whole 200 HTML page for the session
   * the authorization cache holds for the cookie (the one the render used) and carries the nonce
   * its Content-Security-Policy names.
   */
  store(
    req: { key: string; cookie: string },
    ticket: { generation: number; at: number },
    res: {
      status: number;
      headers: Record<string, string | string[] | number | undefined>;
      body: Buffer;
    },
  ): boolean {
    if (ticket.generation !== this.generation || res.status !== 200) return false;
    const h = lowerCased(res.headers);
    if (!String(h['content-type'] ?? '').startsWith('text/html') || h['set-cookie'] !== undefined)
      return false;
    const nonce = /'nonce-([A-Za-z0-9+/=]{16,64})'/.exec(
      String(h['content-security-policy'] ?? ''),
    )?.[1];
    const session = this.auth.peekSession(req.cookie);
    if (!nonce || !session) return false;
    const html = decoded(res.body, String(h['content-encoding'] ?? ''));
    if (html === null || html.length > SHELL_MAX_BYTES) return false;
    const keep: Record<string, string> = {};
    for (const [name, value] of Object.entries(h))
      if (value !== undefined && !DROPPED.has(name) && !name.startsWith('x-poolbench-'))
        keep[name] = Array.isArray(value) ? value.join(', ') : String(value);
    const until = ticket.at + keptAnswerMs();
    if (until <= this.now()) return false;
    this.map.delete(req.key);
    this.map.set(req.key, {
      parts: html.split(nonce),
      headers: keep,
      sessionId: session.sessionId,
      userId: session.user.id,
      activeTeamId: session.activeTeamId,
      ...renewable(ticket.at, until),
    });
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return true;
  }

  /** Forget the shells of a user or a session; any revocation voids captures in flight. */
  forget(r: Revocation): void {
    this.generation++;
    for (const [key, s] of this.map)
      if ((r.userId && s.userId === r.userId) || (r.sessionId && s.sessionId === r.sessionId))
        this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}

/** Headers of a kept answer that belong to one response only (the fast path sets its own). */
const DROPPED = new Set([
  'content-length',
  'content-encoding',
  'content-security-policy',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'set-cookie',
  'server-timing',
]);

const lowerCased = <V>(h: Record<string, V>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

function decoded(body: Buffer, encoding: string): string | null {
  try {
    const e = encoding.trim().toLowerCase();
    const raw =
      e === '' || e === 'identity'
        ? body
        : e === 'gzip' || e === 'x-gzip'
          ? gunzipSync(body)
          : e === 'br'
            ? brotliDecompressSync(body)
            : e === 'deflate'
              ? inflateSync(body)
              : null;
    return raw === null ? null : raw.toString('utf8');
  } catch {
    return null;
  }
}

/** This process's shells; `auth` is its authorization cache (src/server/auth-cache.ts). */
export const processShells = (auth: ShellAuth): ShellPages =>
  processWide('shell-pages', () => {
    const s = new ShellPages(auth);
    onRevocation('shell-pages', (r) => s.forget(r));
    return s;
  });

/** `POOLBENCH_PAGE_CACHE=off` keeps no shells either. */
export const shellsOn = () => pageCacheOn() && keptAnswerMs() > 0;
