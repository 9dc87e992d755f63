'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Button } from '~/components/ui/button';
import { Alert } from '~/components/ui/feedback';
import { SettingsCard } from './settings-card';
import { TextField } from '~/components/ui/text-field';

const asNumber = (v: string) => (v.trim() === '' ? null : Number(v));

/** What this team may ask of the shared load fleet (docs/security.md, "A fair fleet"). */
export function FleetLimits() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const info = useQuery(trpc.team.fleetLimits.queryOptions());
  const [runs, setRuns] = useState('');
  const [minutes, setMinutes] = useState('');
  useEffect(() => {
    if (!info.data) return;
    setRuns(String(info.data.custom.maxRunsPerExperiment ?? ''));
    setMinutes(String(info.data.custom.maxQueuedLoadMinutes ?? ''));
  }, [info.data]);
  const save = useMutation(
    trpc.team.setFleetLimits.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.team.fleetLimits.queryKey() }),
    }),
  );
  const problems = problemsOf(save.error);
  return (
    <SettingsCard
      title="Fleet limits"
      description="The load fleet is shared: launches and added repeats beyond these are refused with the reason, and queued runs of different teams take turns."
      query={info}
    >
      {(d) => (
        <>
          <p className="text-sm text-slate-600" data-testid="fleet-usage">
            Queued now: {d.queuedRuns} run{d.queuedRuns === 1 ? '' : 's'}, {d.queuedLoadMinutes} of{' '}
            {d.maxQueuedLoadMinutes} min of load. Workers online: {d.onlineWorkers}.
          </p>
          {can('admin') ? (
            <form
              className="flex flex-wrap items-start gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                save.mutate({
                  maxRunsPerExperiment: asNumber(runs),
                  maxQueuedLoadMinutes: asNumber(minutes),
                });
              }}
            >
              <TextField
                label="Runs per experiment"
                help={`Empty: the default, ${d.defaults.maxRunsPerExperiment}.`}
                error={problems.maxRunsPerExperiment}
                className="w-56"
                value={runs}
                onValue={setRuns}
                inputMode="numeric"
                placeholder={String(d.defaults.maxRunsPerExperiment)}
              />
              <TextField
                label="Queued load (minutes)"
                help={`Scenario length × load generators, summed over queued runs. Empty: ${d.defaults.maxQueuedLoadMinutes}.`}
                error={problems.maxQueuedLoadMinutes}
                className="w-72"
                value={minutes}
                onValue={setMinutes}
                inputMode="numeric"
                placeholder={String(d.defaults.maxQueuedLoadMinutes)}
              />
              <Button type="submit" loading={save.isPending} className="mt-6">
                Save
              </Button>
              {save.isError && !Object.keys(problems).length ? (
                <Alert tone="error">{messageOf(save.error)}</Alert>
              ) : null}
            </form>
          ) : (
            <p className="text-sm text-slate-600">
              At most {d.maxRunsPerExperiment} runs per experiment and {d.maxQueuedLoadMinutes} min
              of queued load. Only admins change this.
            </p>
          )}
        </>
      )}
    </SettingsCard>
  );
}
