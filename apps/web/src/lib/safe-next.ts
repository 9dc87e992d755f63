/** Where to go after signing in when `?next=` is missing or not acceptable. */
export const DEFAULT_NEXT = '/runs';

/**
 * The `?next=` target after sign-in, only if it stays on this origin; otherwise `DEFAULT_NEXT`.
 * Prefix checks are not enough: browsers read `/\evil.example` as `//evil.example` and drop tabs
 * and newlines, so the value is parsed the way the browser will parse it (`new URL(next, origin)`)
 * and its origin compared. What is returned is the normalized path, not the raw input, and it
 * must not itself start with `//` (`/.//evil` normalizes to `//evil`, which a router would then
 * read as another host).
 */
export function safeNext(raw: string | null | undefined, origin: string): string {
  if (!raw || raw.length > 2048) return DEFAULT_NEXT;
  // control characters and whitespace are never part of a path we link to; browsers strip some of them
  if (
    [...raw].some(
      (c) =>
        c.charCodeAt(0) <= 0x20 ||
        (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f) ||
        c === '\\',
    )
  )
    return DEFAULT_NEXT;
  if (!raw.startsWith('/') || raw.startsWith('//')) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== new URL(origin).origin) return DEFAULT_NEXT;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//')) return DEFAULT_NEXT;
  return path;
}
