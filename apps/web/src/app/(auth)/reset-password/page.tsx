import { Suspense } from 'react';
import { ResetPasswordForm } from '~/components/auth/password-reset-forms';

export const metadata = { title: 'Choose a new password' };

export default function ResetPasswordPage() {
  return (
    <Suspense>
      <ResetPasswordForm />
    </Suspense>
  );
}
