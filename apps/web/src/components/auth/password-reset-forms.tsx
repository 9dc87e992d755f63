'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { authClient } from '~/lib/auth-client';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/feedback';
import { AuthFormFrame, credentialProblem, useAuthRequest } from './auth-form-frame';
import { TextField } from '~/components/ui/text-field';

/** Asks for a reset link by mail. The answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const params = useSearchParams();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [sent, setSent] = useState(false);
  const { error, busy, submit } = useAuthRequest();
  return (
    <AuthFormFrame
      title="Choose a new password"
      lead="We mail a link to choose a new password. Choosing it signs out every session of the account."
      error={error}
      onSubmit={submit(
        () => credentialProblem.email(email),
        async () => {
          const res = await authClient.requestPasswordReset({
            email,
            redirectTo: '/reset-password',
          });
          if (res.error) return res.error.message ?? 'Could not send the link: try again.';
          setSent(true);
          return null;
        },
      )}
    >
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
    </AuthFormFrame>
  );
}

/** The page the mailed link opens: a new password for the token in the address. */
export function ResetPasswordForm() {
  const params = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const invalid = 'This link is invalid or has expired: ask for a new one.';
  const { error, busy, submit } = useAuthRequest(params.get('error') || !token ? invalid : null);
  return (
    <AuthFormFrame
      title="Choose a new password"
      error={error}
      onSubmit={submit(
        () => (token ? credentialProblem.password(password) : invalid),
        async () => {
          const res = await authClient.resetPassword({ newPassword: password, token: token ?? '' });
          if (res.error) return invalid;
          setDone(true);
          return null;
        },
      )}
    >
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
    </AuthFormFrame>
  );
}
