'use client';

import { Alert } from '~/components/ui/feedback';
import { Button } from '~/components/ui/button';

export default function Error({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <Alert
      tone="error"
      title="This page failed to load"
      action={
        <Button size="sm" variant="secondary" onClick={reset}>
          Try again
        </Button>
      }
    >
      {error.digest ? `Reference ${error.digest}. ` : ''}If it keeps happening, check that the
      database and Redis are up (GET /api/health).
    </Alert>
  );
}
