import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient();

/**
 * Whether one of the auth client's requests succeeded: false when the server refused it (its
 * `error`) and when it got no answer at all (the client throws then: offline, a restart).
 */
export const succeeded = (request: Promise<{ error: unknown }>): Promise<boolean> =>
  request.then(
    (r) => !r.error,
    () => false,
  );
