import { onRevocation, type Revocation } from '../auth/auth-cache';

/** How often a live stream checks that its viewer may still watch, whatever is heard. */
export const VIEWER_RECHECK_MS = 1000;

interface Watched {
  userId: string;
  sessionId: string;
  teamId: string;
  recheck: () => void;
}

const watched = new Set<Watched>();

// a revocation about a watched viewer (their user, session or team) is checked at once
onRevocation('live-streams', (r: Revocation) => {
  for (const w of watched) {
    if (r.userId === w.userId || r.sessionId === w.sessionId || r.teamId === w.teamId) w.recheck();
  }
});

/**
 * Keeps a long-lived response (a live event stream) within what its viewer may still see: the
 * stream is aborted once `stillAllowed` says no, which it asks every `intervalMs` and at once on a
 * revocation about the viewer heard by this process. `stillAllowed` reads through the
 * authorization cache, whose answers last at most 2 s and are forgotten in every web process on a
 * revocation, so a removed member, a sign-out or a lost session ends the stream within about
 * 2 s + `intervalMs` even if the revocation itself is not heard. A check that throws (a database
 * hiccup) is not a no: the next one decides.
 */
export function watchViewer(opts: {
  userId: string;
  sessionId: string;
  teamId: string;
  stillAllowed: () => Promise<boolean>;
  /** aborted when the viewer may no longer watch */
  controller: AbortController;
  intervalMs?: number;
}): void {
  const { controller } = opts;
  let checking = false;
  const recheck = () => {
    if (checking || controller.signal.aborted) return;
    checking = true;
    opts
      .stillAllowed()
      .then((ok) => {
        if (!ok) controller.abort();
      })
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  };
  const entry: Watched = { ...opts, recheck };
  watched.add(entry);
  const timer = setInterval(recheck, opts.intervalMs ?? VIEWER_RECHECK_MS);
  timer.unref?.();
  controller.signal.addEventListener(
    'abort',
    () => {
      clearInterval(timer);
      watched.delete(entry);
    },
    { once: true },
  );
}
