/**
 * Opens `path` as a new document. Used where who is signed in, or which team is active, has just
 * changed: nothing rendered or fetched for the previous identity or team survives in the client
 * router's cache or the query cache, and the next page is rendered once, on the server, with the
 * new session (a client push followed by a refresh rendered it twice, and queued any click made
 * meanwhile behind both renders).
 */
export function enter(path: string): void {
  window.location.assign(path);
}

/** The current page as a new document, for the same reason as `enter`. */
export function reenter(): void {
  window.location.reload();
}
