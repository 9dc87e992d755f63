'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, LoadingBlock } from '~/components/ui/feedback';
import { Checkbox } from '~/components/ui/form';

/** Whether members may import and run their own k6 scripts (docs/k6-scripts.md); admins decide. */
export function ScriptPolicy() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const info = useQuery(trpc.team.scriptPolicy.queryOptions());
  const key = trpc.team.scriptPolicy.queryKey();
  const save = useMutation(
    trpc.team.setScriptPolicy.mutationOptions({
      // the box follows the click at once; a refusal puts the server's answer back
      onMutate: (input) => qc.setQueryData(key, { enabled: input.enabled }),
      onSuccess: (data) => qc.setQueryData(key, data),
      onError: () => qc.invalidateQueries({ queryKey: key }),
    }),
  );
  return (
    <Card>
      <CardHeader
        title="k6 scripts"
        description="Members may import the team's own k6 scripts as scenarios. They run in a sandbox on the worker that reaches nothing but the run's target (docs/security.md). Turned off, scripts cannot be checked, saved or launched, and queued script runs fail instead of starting."
      />
      <CardBody className="space-y-2">
        {info.isPending ? <LoadingBlock rows={1} /> : null}
        {info.isError ? <Alert tone="error">{messageOf(info.error)}</Alert> : null}
        {info.data ? (
          <Checkbox
            label="Allow members to import and run their own k6 scripts"
            description={can('admin') ? undefined : 'Only admins change this.'}
            checked={info.data.enabled}
            disabled={!can('admin') || save.isPending}
            onChange={(e) => save.mutate({ enabled: e.target.checked })}
          />
        ) : null}
        {save.isError ? <Alert tone="error">{messageOf(save.error)}</Alert> : null}
      </CardBody>
    </Card>
  );
}
