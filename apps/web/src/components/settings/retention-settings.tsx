'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Button } from '~/components/ui/button';
import { SettingsCard } from './settings-card';
import { TextField } from '~/components/ui/text-field';

/** The team's retention of per-second data (docs/database.md, "Retention"). */
export function Retention() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const info = useQuery(trpc.team.retention.queryOptions());
  const [days, setDays] = useState('');
  useEffect(() => {
    if (info.data) setDays(info.data.retentionDays === null ? '' : String(info.data.retentionDays));
  }, [info.data]);
  const save = useMutation(
    trpc.team.setRetention.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.team.retention.queryKey() }),
    }),
  );
  const problems = problemsOf(save.error);
  const parsed = days.trim() === '' ? null : Number(days);
  return (
    <SettingsCard
      title="Data retention"
      description="Per-second data (the charts, time-window comparisons) of runs finished longer ago than this is removed, hourly. Each run's summary, merged histograms and verdicts stay, so whole-run comparisons, baselines and trends keep working. Removal cannot be undone."
      query={info}
    >
      {(r) => (
        <>
          {can('admin') ? (
            <form
              className="flex flex-wrap items-start gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                save.mutate({ retentionDays: parsed });
              }}
            >
              <TextField
                label="Keep per-second data for (days)"
                help="Empty keeps it forever."
                error={
                  problems.retentionDays ??
                  (save.isError && !problems.retentionDays ? messageOf(save.error) : null)
                }
                className="w-64"
                value={days}
                onValue={setDays}
                inputMode="numeric"
                placeholder="forever"
              />
              <Button
                type="submit"
                loading={save.isPending}
                className="mt-6"
                disabled={parsed !== null && Number.isNaN(parsed)}
              >
                Save
              </Button>
            </form>
          ) : (
            <p className="text-sm text-slate-600">
              Per-second data is kept{' '}
              {r.retentionDays === null
                ? 'forever'
                : `for ${r.retentionDays} days after a run finishes`}
              . Only admins change this.
            </p>
          )}
          <p className="text-sm text-slate-500" data-testid="retention-pruned">
            {r.prunedRuns === 0
              ? 'No run has lost its per-second data yet.'
              : `${r.prunedRuns} run(s) keep only their summary.`}
          </p>
        </>
      )}
    </SettingsCard>
  );
}
