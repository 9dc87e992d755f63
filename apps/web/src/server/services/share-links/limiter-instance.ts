import { env } from '~/server/env';
import { redis } from '~/server/redis';
import { GLOBAL_GUESS_LIMIT, GUESS_LIMIT, GUESS_WINDOW_SECONDS, GuessLimiter } from './rate-limit';

/** The web process's limiter, counting in the app's Redis. */
export const shareLimiter = new GuessLimiter(
  redis,
  GUESS_LIMIT,
  GUESS_WINDOW_SECONDS,
  'pb:share-guess',
  env.TRUSTED_PROXY_HOPS,
  GLOBAL_GUESS_LIMIT,
);
