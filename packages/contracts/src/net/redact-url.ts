/**
 * URLs can carry credentials (user:pass@) and tokens in the query string. Anything the worker or
 * the web app writes into an error, a log or a stored message shows a URL without either.
 */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    const hadQuery = u.search.length > 0;
    u.search = '';
    u.hash = '';
    return hadQuery ? `${u.toString()}?…` : u.toString();
  } catch {
    return redactUrlsIn(raw);
  }
}

const URL_IN_TEXT =
  /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@]*@)?([^\s?#"'<>]*)(\?[^\s#"'<>]*)?(#[^\s"'<>]*)?/gi;

/** Redacts every scheme://… URL inside free text (error messages, k6 stderr). */
export function redactUrlsIn(text: string): string {
  return text.replace(
    URL_IN_TEXT,
    (_m, scheme: string, _user: string | undefined, rest: string, query: string | undefined) =>
      `${scheme}${rest}${query ? '?…' : ''}`,
  );
}

/** True when a URL carries a user name or password. */
export function hasUrlCredentials(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.username !== '' || u.password !== '';
  } catch {
    return false;
  }
}

export const URL_CREDENTIALS_MESSAGE =
  'credentials in URLs are not allowed; use a secret header such as Authorization';
