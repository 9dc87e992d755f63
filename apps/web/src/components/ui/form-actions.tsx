'use client';

import type { ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { Button } from './button';

/** A form's buttons, on the right: Cancel (back to where the user came from), then the form's own. */
export function FormActions({ children }: { children: ReactNode }) {
  const router = useRouter();
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" onClick={() => router.back()}>
        Cancel
      </Button>
      {children}
    </div>
  );
}
