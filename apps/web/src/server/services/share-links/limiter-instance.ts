import { redis } from '~/server/redis';
import { GuessLimiter } from './rate-limit';

/** The web process's limiter, counting in the app's Redis. */
export const shareLimiter = new GuessLimiter(redis);
