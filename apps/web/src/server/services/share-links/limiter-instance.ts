import { env } from '~/server/env';
import { processWide } from '~/server/process-wide';
import { redis } from '~/server/redis';
import { GLOBAL_GUESS_LIMIT, GUESS_LIMIT, GUESS_WINDOW_SECONDS, GuessLimiter } from './rate-limit';

/**
 * The web process's limiter, counting in the app's Redis (in this process's memory while Redis is
 * unreachable: one limiter per process, whichever copy of this module asks).
 */
export const shareLimiter = processWide(
  'share-limiter',
  () =>
    new GuessLimiter(
      redis,
      GUESS_LIMIT,
      GUESS_WINDOW_SECONDS,
      'pb:share-guess',
      env.TRUSTED_PROXY_HOPS,
      GLOBAL_GUESS_LIMIT,
    ),
);
