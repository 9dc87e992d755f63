import { env } from '../../env';
import { redis } from '../../redis';
import { SignInLimiter } from './sign-in-limiter';

export const signInLimiter = new SignInLimiter(redis, env.TRUSTED_PROXY_HOPS);
