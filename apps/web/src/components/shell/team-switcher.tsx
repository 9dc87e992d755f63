'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { ChevronsUpDown, Plus } from 'lucide-react';
import { useState } from 'react';
import { enter } from '~/lib/enter';
import { useTRPC } from '~/lib/trpc/react';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Dialog } from '~/components/ui/dialog';
import { byIdName, Field, Input, Options } from '~/components/ui/form';
import { Skeleton } from '~/components/ui/feedback';
import { messageOf, problemsOf } from '~/lib/trpc/errors';

export function TeamSwitcher() {
  const trpc = useTRPC();
  const me = useQuery(trpc.team.me.queryOptions());
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const afterSwitch = () => enter('/runs');
  const switchTeam = useMutation(trpc.team.switch.mutationOptions({ onSuccess: afterSwitch }));
  const create = useMutation(
    trpc.team.create.mutationOptions({
      onSuccess: () => {
        setCreating(false);
        setName('');
        afterSwitch();
      },
    }),
  );

  if (me.isPending) return <Skeleton className="h-14 w-full" />;
  if (me.isError)
    return <p className="text-xs text-red-700">Teams unavailable: {messageOf(me.error)}</p>;
  const active = me.data.active;
  return (
    <div>
      <label
        htmlFor="team-switcher"
        className="mb-1 block text-[11px] font-semibold uppercase tracking-wider text-slate-500"
      >
        Team
      </label>
      <div className="relative">
        <select
          id="team-switcher"
          className="h-10 w-full appearance-none rounded-md border border-slate-200 bg-slate-50 pl-3 pr-8 text-sm font-medium text-slate-800 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          value={active?.id ?? ''}
          onChange={(e) =>
            e.target.value === '__new'
              ? setCreating(true)
              : switchTeam.mutate({ teamId: e.target.value })
          }
          disabled={switchTeam.isPending}
        >
          <Options items={me.data.teams} {...byIdName} />
          <option value="__new">+ New team…</option>
        </select>
        <ChevronsUpDown
          className="pointer-events-none absolute right-2.5 top-3 size-4 text-slate-400"
          aria-hidden
        />
      </div>
      {active ? (
        <div className="mt-1.5">
          <Badge tone={active.role === 'viewer' ? 'neutral' : 'brand'}>{active.role}</Badge>
        </div>
      ) : null}
      <Dialog
        open={creating}
        onClose={() => setCreating(false)}
        title="New team"
        description="You will be its owner. Targets, runs and members are separate per team."
      >
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ name });
          }}
        >
          <Field
            label="Team name"
            error={
              problemsOf(create.error).name ??
              (create.error && !problemsOf(create.error).name ? messageOf(create.error) : null)
            }
          >
            {(p) => (
              <Input {...p} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
            )}
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setCreating(false)}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              <Plus className="size-4" /> Create team
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
