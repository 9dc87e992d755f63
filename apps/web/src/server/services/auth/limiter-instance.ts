import { env } from '../../env';
import { redis } from '../../redis';
import { SignInLimiter } from './sign-in-limiter';
import { SIGN_UP_LIMITS, SignUpLimiter } from './sign-up-limiter';
import { MailLinkLimiter } from './mail-link-limiter';

export const signInLimiter = new SignInLimiter(redis, env.TRUSTED_PROXY_HOPS);
export const signUpLimiter = new SignUpLimiter(redis, {
  ...SIGN_UP_LIMITS,
  perInstallationPerMinute: env.SIGN_UP_LIMIT_PER_MINUTE,
});
export const mailLinkLimiter = new MailLinkLimiter(redis);
