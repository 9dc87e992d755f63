// The lab's login pair (POST /login, GET /me), the same on every runtime (docs/runtimes.md).
// Tokens are stateless, so any instance accepts another's:
// "<userId>.<hex HMAC-SHA256(key "poolbench-lab", message "<userId>")>". The key is public: this
// is a lab for pooled request flows, not an authentication system.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOKEN_KEY = 'poolbench-lab';
/** POST /login reads at most this much body; a larger one is a bad_login. */
export const MAX_LOGIN_BODY = 64 << 10;

/** The error answers' messages, the same on every runtime. */
export const MESSAGES = {
  badLogin: 'body must be a JSON object with string fields username and password',
  badCredentials: 'unknown username or wrong password',
  unauthorized: 'missing or invalid bearer token',
  userNotFound: "the token's user does not exist",
} as const;

/** A user id without leading zeros (at most 10 digits, checked against int32) and 64 lowercase hex digits. */
const TOKEN = /^([1-9][0-9]{0,9})\.([0-9a-f]{64})$/;

const mac = (msg: string) => createHmac('sha256', TOKEN_KEY).update(msg).digest('hex');

/** The bearer token of user id. */
export const token = (id: number) => `${id}.${mac(String(id))}`;

/**
 * The user id of an "Authorization: Bearer <token>" header value (scheme case-insensitive), or
 * null when it is missing, malformed or its HMAC does not verify.
 */
export function bearerUser(header: string | null): number | null {
  const v = (header ?? '').trim();
  if (v.length < 7 || v.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  const m = TOKEN.exec(v.slice(7).trim());
  if (!m) return null;
  const id = Number(m[1]);
  if (id > 2_147_483_647) return null;
  const ok = timingSafeEqual(Buffer.from(m[2]!), Buffer.from(mac(m[1]!)));
  return ok ? id : null;
}

/**
 * POST /login's body: a JSON object whose username and password are strings (other fields are
 * ignored); null when it is too large, not JSON, not an object, or lacks either string.
 */
export function parseLogin(body: Uint8Array): { username: string; password: string } | null {
  if (body.byteLength > MAX_LOGIN_BODY) return null;
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const { username, password } = v as Record<string, unknown>;
  return typeof username === 'string' && typeof password === 'string'
    ? { username, password }
    : null;
}

/** Constant-time equality of the stored and the given password. */
export function samePassword(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
