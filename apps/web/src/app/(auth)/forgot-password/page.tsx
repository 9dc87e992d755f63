import { Suspense } from 'react';
import { ForgotPasswordForm } from '~/components/auth/password-reset-forms';

export const metadata = { title: 'Forgot password' };

export default function ForgotPasswordPage() {
  return (
    <Suspense>
      <ForgotPasswordForm />
    </Suspense>
  );
}
