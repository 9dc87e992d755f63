import { SearchX } from 'lucide-react';
import { ButtonLink } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/feedback';

export default function NotFound() {
  return (
    <EmptyState
      icon={SearchX}
      title="Not found"
      action={
        <ButtonLink href="/runs" variant="secondary">
          Back to runs
        </ButtonLink>
      }
    >
      This page does not exist in your current team. If a colleague sent the link, switch to their
      team or ask them for an invitation.
    </EmptyState>
  );
}
