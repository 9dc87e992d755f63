// A path with a malformed percent-escape (`%zz`, `%`, a truncated UTF-8 sequence such as
// `%E0%A4%A`) names no resource: route handlers and Next.js's own parameter decoding throw
// URIError on it, which answered 500. server.mjs answers it 400 before anything decodes it, on
// every route and before any authentication, problem+json under /api/ and plain text elsewhere.

/** The 400 answer for a request whose path does not decode, or null when it decodes. */
export function malformedPathAnswer(url) {
  const raw = String(url ?? '');
  const path = raw.split(/[?#]/, 1)[0] ?? '';
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    const detail =
      'the path has a malformed percent-escape (every % must start a valid UTF-8 escape such as %20)';
    if (path.startsWith('/api/'))
      return {
        status: 400,
        headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' },
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail,
          code: 'malformed_path',
        }),
      };
    return {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      body: `Bad Request: ${detail}\n`,
    };
  }
}
