'use client';

import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { authClient } from '~/lib/auth-client';
import { Button } from '~/components/ui/button';
import { TextField } from '~/components/ui/text-field';
import { enter } from '~/lib/enter';
import { DEFAULT_NEXT, safeNext } from '~/lib/safe-next';
import { AuthFormFrame, credentialProblem, useAuthRequest } from './auth-form-frame';

export function AuthForm({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const params = useSearchParams();
  // only same-origin paths, so ?next= cannot send people elsewhere after signing in
  const next = safeNext(
    params.get('next'),
    typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  );
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useAuthRequest();
  const signUp = mode === 'sign-up';

  return (
    <AuthFormFrame
      title={signUp ? 'Create your account' : 'Sign in to PoolBench'}
      lead={signUp ? 'You get a team of your own; invite colleagues later.' : 'Welcome back.'}
      error={error}
      onSubmit={submit(
        () =>
          (signUp && name.trim() === '' ? 'Enter your name.' : null) ??
          credentialProblem.email(email) ??
          credentialProblem.password(password),
        async () => {
          const res = signUp
            ? // the mailed verification link leads back to `next` too (an invitation's page), not
              // to the team every sign-up gets
              await authClient.signUp.email({
                name: name.trim(),
                email,
                password,
                callbackURL: next,
              })
            : await authClient.signIn.email({ email, password });
          if (res.error)
            return (
              res.error.message ??
              (signUp ? 'Could not create the account.' : 'Wrong email or password.')
            );
          enter(next);
          return null;
        },
      )}
    >
      {signUp ? (
        <TextField label="Name" value={name} onValue={setName} autoComplete="name" />
      ) : null}
      <TextField label="Email" value={email} onValue={setEmail} type="email" autoComplete="email" />
      <TextField
        label="Password"
        help={signUp ? 'At least 8 characters.' : undefined}
        value={password}
        onValue={setPassword}
        type="password"
        autoComplete={signUp ? 'new-password' : 'current-password'}
      />
      <Button type="submit" className="w-full" loading={busy}>
        {signUp ? 'Create account' : 'Sign in'}
      </Button>
      {signUp ? null : (
        <p className="text-center text-sm">
          <Link
            className="text-slate-500 hover:underline"
            href={`/forgot-password${email ? `?email=${encodeURIComponent(email)}` : ''}`}
          >
            Forgot your password?
          </Link>
        </p>
      )}
      <p className="text-center text-sm text-slate-500">
        {signUp ? 'Already have an account? ' : 'New to PoolBench? '}
        <Link
          className="font-medium text-brand-700 hover:underline"
          href={`${signUp ? '/sign-in' : '/sign-up'}${next !== DEFAULT_NEXT ? `?next=${encodeURIComponent(next)}` : ''}`}
        >
          {signUp ? 'Sign in' : 'Create an account'}
        </Link>
      </p>
    </AuthFormFrame>
  );
}
