import type { SignInLimiter } from './sign-in-limiter';
import type { SignUpLimiter } from './sign-up-limiter';
import type { MailLinkLimiter } from './mail-link-limiter';

/** Better Auth routes that mail a link to the address in the body. */
const MAIL_LINK_PATHS = ['/request-password-reset', '/send-verification-email'];

/** The only header Better Auth reads the client address from; set here, never taken from clients. */
export const CLIENT_IP_HEADER = 'x-poolbench-client-ip';

type Handler = (req: Request) => Promise<Response>;

/**
 * Wraps Better Auth's route handler: passes it the trusted client address (or none), limits
 * sign-ins with `SignInLimiter`, sign-ups with `SignUpLimiter` and mailed links with
 * `MailLinkLimiter`, and answers every refusal of a well-formed sign-up alike (see
 * `refuseSignUp`). `wait` is how a delayed sign-in waits (a test records the delays).
 */
export function guardAuthRequest(
  handler: Handler,
  limiter: SignInLimiter,
  signUps: SignUpLimiter,
  mailLinks: MailLinkLimiter,
  wait: (ms: number) => Promise<unknown> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Handler {
  return async (req) => {
    const headers = new Headers(req.headers);
    headers.delete(CLIENT_IP_HEADER);
    const client = limiter.clientKey(req.headers);
    if (client !== null) headers.set(CLIENT_IP_HEADER, client);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    const forward = new Request(req.url, { method: req.method, headers, body });
    const path = new URL(req.url).pathname;
    if (req.method === 'POST' && path.endsWith('/sign-in/email')) {
      const email = emailOf(body);
      if (email === null) return handler(forward);
      const verdict = await limiter.check(email, client);
      if (verdict.retryAfterSeconds !== null)
        return tooManyAttempts(verdict.retryAfterSeconds, verdict.refusedFor);
      if (verdict.delayMs > 0) await wait(verdict.delayMs);
      const res = await handler(forward);
      if (res.status === 401) await limiter.recordFailure(email, client);
      else if (res.ok) await limiter.recordSuccess(email, client);
      return res;
    }
    if (req.method === 'POST' && path.endsWith('/sign-up/email')) {
      const retryAfter = await signUps.admit(client);
      if (retryAfter !== null) return tooManyAttempts(retryAfter, 'sign-up');
      return refuseSignUp(await handler(forward));
    }
    if (req.method === 'POST' && MAIL_LINK_PATHS.some((p) => path.endsWith(p))) {
      const email = emailOf(body);
      if (email !== null) {
        const retryAfter = await mailLinks.admit(email);
        if (retryAfter !== null) return tooManyAttempts(retryAfter, 'mail-link');
      }
    }
    return handler(forward);
  };
}

function emailOf(body: string | undefined): string | null {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    const email = (parsed as { email?: unknown } | null)?.email;
    return typeof email === 'string' && email !== '' ? email : null;
  } catch {
    return null;
  }
}

function tooManyAttempts(
  retryAfterSeconds: number,
  refusedFor: 'client' | 'account-queue' | 'sign-up' | 'mail-link' | undefined,
): Response {
  const wait =
    retryAfterSeconds < 120
      ? `${retryAfterSeconds} seconds`
      : `${Math.ceil(retryAfterSeconds / 60)} minutes`;
  const message =
    refusedFor === 'account-queue'
      ? `Too many sign-ins on this account are waiting right now. Try again in ${wait}.`
      : refusedFor === 'sign-up'
        ? `Too many new accounts were created in a short time. Try again in ${wait}.`
        : refusedFor === 'mail-link'
          ? `Too many links were mailed to this address or from this server lately. Try again in ${wait}.`
          : `Too many failed sign-ins from your address. Try again in ${wait}.`;
  return Response.json(
    {
      code:
        refusedFor === 'sign-up'
          ? 'TOO_MANY_SIGN_UPS'
          : refusedFor === 'mail-link'
            ? 'TOO_MANY_MAIL_LINKS'
            : 'TOO_MANY_ATTEMPTS',
      message,
    },
    { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
  );
}

/**
 * Better Auth answers a sign-up with a taken email 422 USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL,
 * which tells anyone which emails have accounts. Every refusal of a well-formed sign-up (any 422)
 * answers the same 400 SIGN_UP_REFUSED here. Errors about the input alone (invalid email,
 * password length: 400) stay as they are: they say nothing about other accounts. That a sign-up
 * succeeded remains visible: the account works before its address is verified, and whoever
 * verifies the address later owns it (create-auth.ts, `takeOwnership`).
 */
function refuseSignUp(res: Response): Response {
  if (res.status !== 422) return res;
  return Response.json(
    {
      code: 'SIGN_UP_REFUSED',
      message: 'Could not create the account. If you already have one, sign in instead.',
    },
    { status: 400 },
  );
}
