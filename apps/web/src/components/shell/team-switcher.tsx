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

const LABEL = 'mb-1 block text-[11px] font-semibold uppercase tracking-wider text-slate-500';
const ROLE_ROW = 'mt-1.5 flex h-5 items-center';

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

  // Loading, failed and loaded take the same height, so the links below never move under a
  // pointer that is about to click one.
  if (me.isPending)
    return (
      <div>
        <p className={LABEL}>Team</p>
        <Skeleton className="h-10 w-full" />
        <div className={ROLE_ROW} />
      </div>
    );
  if (me.isError)
    return (
      <div>
        <p className={LABEL}>Team</p>
        <p className="line-clamp-2 h-10 text-xs text-red-700">
          Teams unavailable: {messageOf(me.error)}
        </p>
        <div className={ROLE_ROW} />
      </div>
    );
  const active = me.data.active;
  return (
    <div>
      <label htmlFor="team-switcher" className={LABEL}>
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
      <div className={ROLE_ROW}>
        {active ? (
          <Badge tone={active.role === 'viewer' ? 'neutral' : 'brand'}>{active.role}</Badge>
        ) : null}
      </div>
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
