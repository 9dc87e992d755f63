'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { authClient } from '~/lib/auth-client';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/feedback';
import { TextField } from '~/components/ui/text-field';

/** Asks for a reset link by mail. The answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const params = useSearchParams();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        if (!/^\S+@\S+\.\S+$/.test(email)) return setError('Enter a valid email address.');
        setBusy(true);
        const res = await authClient.requestPasswordReset({ email, redirectTo: '/reset-password' });
        setBusy(false);
        if (res.error) return setError(res.error.message ?? 'Could not send the link: try again.');
        setSent(true);
      }}
    >
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Choose a new password</h1>
        <p className="mt-1 text-sm text-slate-500">
          We mail a link to choose a new password. Choosing it signs out every session of the
          account.
        </p>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {sent ? (
        <Alert tone="success">
          If {email} has an account, a link is on its way. It works once, within an hour.
        </Alert>
      ) : null}
      <TextField label="Email" value={email} onValue={setEmail} type="email" autoComplete="email" />
      <Button type="submit" className="w-full" loading={busy}>
        Send the link
      </Button>
      <p className="text-center text-sm text-slate-500">
        <Link className="font-medium text-brand-700 hover:underline" href="/sign-in">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}

/** The page the mailed link opens: a new password for the token in the address. */
export function ResetPasswordForm() {
  const params = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(
    params.get('error') || !token
      ? 'This link is invalid or has expired: ask for a new one.'
      : null,
  );
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (!token) return;
        setError(null);
        if (password.length < 8) return setError('The password needs at least 8 characters.');
        setBusy(true);
        const res = await authClient.resetPassword({ newPassword: password, token });
        setBusy(false);
        if (res.error) return setError('This link is invalid or has expired: ask for a new one.');
        setDone(true);
      }}
    >
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Choose a new password</h1>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {done ? (
        <Alert tone="success">
          Your password is set and every other session of the account has ended.{' '}
          <Link className="font-medium underline" href="/sign-in">
            Sign in
          </Link>
        </Alert>
      ) : (
        <>
          <TextField
            label="New password"
            help="At least 8 characters."
            value={password}
            onValue={setPassword}
            type="password"
            autoComplete="new-password"
          />
          <Button type="submit" className="w-full" loading={busy} disabled={!token}>
            Set the password
          </Button>
        </>
      )}
      <p className="text-center text-sm text-slate-500">
        <Link className="font-medium text-brand-700 hover:underline" href="/forgot-password">
          Ask for a new link
        </Link>
      </p>
    </form>
  );
}
