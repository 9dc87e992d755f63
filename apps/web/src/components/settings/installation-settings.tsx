'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeAllowPattern, openRangeRefusal } from '@poolbench/contracts/net';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { AddressRuleForm, AddressRuleList } from './address-rules';

/** What a typed range would open, before it is saved; null while it is not a range yet. */
function preview(raw: string) {
  const p = raw.trim().toLowerCase();
  if (!p) return null;
  const cidr = p.includes('/') ? p : `${p}/${p.includes(':') ? 128 : 32}`;
  try {
    const refused = openRangeRefusal(cidr);
    return refused ? { refused } : { holds: describeAllowPattern(cidr) };
  } catch {
    return null;
  }
}

/**
 * The special-purpose ranges (loopback, private, …) teams may allowlist, for installation admins
 * only; the page shows it to them alone (`installation.me`), the server refuses everyone else.
 */
export function InstallationRanges() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const me = useQuery(trpc.installation.me.queryOptions());
  const admin = me.data?.admin === true;
  const list = useQuery({ ...trpc.installation.ranges.queryOptions(), enabled: admin });
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: trpc.installation.ranges.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.team.allowlist.queryKey() }),
    ]);
  const [cidr, setCidr] = useState('');
  const [note, setNote] = useState('');
  const open = useMutation(
    trpc.installation.open.mutationOptions({
      onSuccess: () => {
        setCidr('');
        setNote('');
        return refresh();
      },
    }),
  );
  const close = useMutation(trpc.installation.close.mutationOptions({ onSuccess: refresh }));
  if (!admin) return null;
  const problems = problemsOf(open.error);
  const p = preview(cidr);
  return (
    <Card>
      <CardHeader
        title="Installation: ranges open to teams"
        description="You are an installation admin. A team admin may allowlist public hosts, and loopback, private or other special-purpose addresses only inside a range opened here. Link-local ranges and cloud metadata addresses can never be opened; the installation's own services (its database, Redis, mail, web app) stay unreachable whatever is open."
      />
      <CardBody className="space-y-4">
        <AddressRuleForm
          label="IP or CIDR"
          help={
            p
              ? 'refused' in p
                ? `Refused: ${p.refused}`
                : `Opens ${p.holds.addresses}, ${p.holds.label}`
              : undefined
          }
          error={problems.cidr ?? (open.isError && !problems.cidr ? messageOf(open.error) : null)}
          value={cidr}
          onValue={setCidr}
          placeholder="127.0.0.0/8 or 10.20.0.0/16"
          note={note}
          onNote={setNote}
          notePlaceholder="services on this machine"
          submit="Open"
          saving={open.isPending}
          onSubmit={() => open.mutate({ cidr, note: note || undefined })}
        />
        <AddressRuleList
          rules={list.data?.map((r) => ({
            id: r.id,
            address: r.cidr,
            holds: r.holds,
            note: r.note,
          }))}
          pending={list.isPending}
          empty="Nothing is open: teams may allowlist public hosts only. For services on this machine, open 127.0.0.0/8."
          remove={{ verb: 'Close', onRemove: (id) => close.mutate({ id }) }}
        />
      </CardBody>
    </Card>
  );
}
