'use client';

import { useState } from 'react';
import { Alert } from '~/components/ui/feedback';

const EMAIL = /^\S+@\S+\.\S+$/;

/** The first thing wrong with an email address or a new password, as the auth forms say it. */
export const credentialProblem = {
  email: (email: string) => (EMAIL.test(email) ? null : 'Enter a valid email address.'),
  password: (password: string) =>
    password.length >= 8 ? null : 'The password needs at least 8 characters.',
};

const UNREACHABLE = 'Could not reach PoolBench: check your connection and try again.';

/**
 * An auth form's one request: `submit(check, request)` handles the form's submit event. `check`
 * returns the first problem of the input, if any; `request` returns the error to show, or null when
 * it succeeded; a request that throws (no answer at all) shows that the server could not be reached.
 * `busy` is true while the request is on its way, and false again however it ended.
 */
export function useAuthRequest(initialError: string | null = null) {
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  const submit =
    (check: () => string | null | undefined, request: () => Promise<string | null>) =>
    async (e: React.FormEvent) => {
      e.preventDefault();
      setError(null);
      const problem = check();
      if (problem) return setError(problem);
      setBusy(true);
      let failed: string | null;
      try {
        failed = await request();
      } catch {
        // the request never got an answer (offline, the server restarting)
        failed = UNREACHABLE;
      } finally {
        setBusy(false);
      }
      if (failed) setError(failed);
    };
  return { error, busy, submit };
}

/** The frame of an auth page's form: its heading, an optional lead, the error, then the fields. */
export function AuthFormFrame({
  title,
  lead,
  error,
  onSubmit,
  children,
}: {
  title: React.ReactNode;
  lead?: React.ReactNode;
  error: string | null;
  onSubmit: (e: React.FormEvent) => void;
  children: React.ReactNode;
}) {
  return (
    <form className="space-y-4" noValidate onSubmit={onSubmit}>
      <div>
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {lead ? <p className="mt-1 text-sm text-slate-500">{lead}</p> : null}
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {children}
    </form>
  );
}
