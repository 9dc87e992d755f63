import { Loader2 } from 'lucide-react';
import type { RunStatus } from '@poolbench/contracts';
import { Badge, type BadgeTone } from '~/components/ui/badge';

const LOOK: Record<RunStatus, { tone: BadgeTone; label: string; spin?: boolean }> = {
  queued: { tone: 'neutral', label: 'Queued' },
  preparing: { tone: 'violet', label: 'Preparing', spin: true },
  running: { tone: 'blue', label: 'Running', spin: true },
  succeeded: { tone: 'green', label: 'Succeeded' },
  thresholds_failed: { tone: 'red', label: 'Thresholds failed' },
  failed: { tone: 'red', label: 'Failed' },
  canceled: { tone: 'amber', label: 'Canceled' },
  timed_out: { tone: 'red', label: 'Timed out' },
  aborted_system: { tone: 'red', label: 'Aborted (system)' },
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const l = LOOK[status] ?? { tone: 'neutral' as const, label: status };
  return (
    <Badge tone={l.tone}>
      {l.spin ? (
        <Loader2 className="size-3 motion-safe:animate-spin" aria-hidden />
      ) : (
        <span className="size-1.5 rounded-full bg-current" aria-hidden />
      )}
      <span data-testid="run-status">{l.label}</span>
    </Badge>
  );
}
