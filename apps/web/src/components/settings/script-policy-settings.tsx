'use client';

import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { useRole } from '~/lib/hooks/use-role';
import { ErrorAlert } from '~/components/ui/query-state';
import { SettingsCard } from './settings-card';
import { Checkbox } from '~/components/ui/form';

/** Whether members may import and run their own k6 scripts (docs/k6-scripts.md); admins decide. */
export function ScriptPolicy() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const info = useQuery(trpc.team.scriptPolicy.queryOptions());
  const key = trpc.team.scriptPolicy.queryKey();
  // The box follows the click in the same render (a controlled checkbox whose state changed only
  // after the request started would flip back for a moment on a busy machine); the server's
  // answer replaces it, and a refusal puts the stored setting back.
  const [clicked, setClicked] = useState<boolean | null>(null);
  const save = useMutation(
    trpc.team.setScriptPolicy.mutationOptions({
      onSuccess: (data) => qc.setQueryData(key, data),
      onError: () => qc.invalidateQueries({ queryKey: key }),
      onSettled: () => setClicked(null),
    }),
  );
  return (
    <SettingsCard
      title="k6 scripts"
      description="Members may import the team's own k6 scripts as scenarios. They run in a sandbox on the worker that reaches nothing but the run's target (docs/security.md). Turned off, scripts cannot be checked, saved or launched, and queued script runs fail instead of starting."
      query={info}
    >
      {(policy) => (
        <>
          <Checkbox
            label="Allow members to import and run their own k6 scripts"
            description={can('admin') ? undefined : 'Only admins change this.'}
            checked={clicked ?? policy.enabled}
            disabled={!can('admin') || save.isPending}
            onChange={(e) => {
              setClicked(e.target.checked);
              save.mutate({ enabled: e.target.checked });
            }}
          />
          <ErrorAlert error={save.error} />
        </>
      )}
    </SettingsCard>
  );
}
