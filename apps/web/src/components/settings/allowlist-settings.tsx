'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeAllowPattern, forbiddenAllowReason } from '@poolbench/contracts/net';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { AddressRuleForm, AddressRuleList } from './address-rules';

/** What a typed pattern would allow, before it is saved; null while it is not a pattern yet. */
function preview(pattern: string) {
  const p = pattern.trim().toLowerCase();
  if (!p) return null;
  try {
    return { ...describeAllowPattern(p), forbidden: forbiddenAllowReason(p) };
  } catch {
    return null;
  }
}

export function Allowlist() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const list = useQuery(trpc.team.allowlist.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.team.allowlist.queryKey() });
  const [pattern, setPattern] = useState('');
  const [note, setNote] = useState('');
  const [confirmBroad, setConfirmBroad] = useState(false);
  const add = useMutation(
    trpc.team.allow.mutationOptions({
      onSuccess: () => {
        setPattern('');
        setNote('');
        setConfirmBroad(false);
        return refresh();
      },
    }),
  );
  const remove = useMutation(trpc.team.disallow.mutationOptions({ onSuccess: refresh }));
  const problems = problemsOf(add.error);
  const p = preview(pattern);
  return (
    <Card>
      <CardHeader
        title="Allowlist"
        description="Hosts and networks URL targets may send load to, and internal addresses schedule webhooks may be delivered to (a webhook to a public address needs no entry). Managed lab targets run on this machine and need no entry. Loopback, private and other special-purpose addresses only inside a range an installation admin opened; link-local ranges (cloud metadata) can never be allowed."
      />
      <CardBody className="space-y-4">
        {can('admin') ? (
          <AddressRuleForm
            label="Host, *.domain, IP or CIDR"
            help={
              p
                ? p.forbidden
                  ? `Refused: ${p.forbidden}`
                  : `Allows ${p.addresses}, ${p.label}`
                : undefined
            }
            error={
              problems.pattern ??
              (add.isError && !problems.pattern && !problems.confirmBroad
                ? messageOf(add.error)
                : null)
            }
            value={pattern}
            onValue={(v) => {
              setPattern(v);
              setConfirmBroad(false);
            }}
            placeholder="api.staging.example.com or 10.0.0.0/8"
            note={note}
            onNote={setNote}
            notePlaceholder="staging cluster"
            submit="Allow"
            saving={add.isPending}
            onSubmit={() => add.mutate({ pattern, note: note || undefined, confirmBroad })}
          >
            {p?.broad || problems.confirmBroad ? (
              <label className="col-span-full flex items-center gap-2 text-sm text-amber-800">
                <input
                  type="checkbox"
                  checked={confirmBroad}
                  onChange={(e) => setConfirmBroad(e.target.checked)}
                />
                I understand this allows {p?.addresses ?? 'a very wide range of addresses'}
                {problems.confirmBroad ? (
                  <span className="text-red-700">({problems.confirmBroad})</span>
                ) : null}
              </label>
            ) : null}
          </AddressRuleForm>
        ) : (
          <p className="text-sm text-slate-500">Only admins change the allowlist.</p>
        )}
        <AddressRuleList
          rules={list.data?.map((h) => ({
            id: h.id,
            address: h.pattern,
            holds: h.allows,
            note: h.note,
            warning: h.unopened ? `Reaches nothing special: ${h.unopened}` : null,
          }))}
          pending={list.isPending}
          empty="Nothing allowed yet: URL targets cannot be created, nor webhooks sent to an internal address, until a host is allowed."
          remove={
            can('admin') ? { verb: 'Remove', onRemove: (id) => remove.mutate({ id }) } : undefined
          }
        />
      </CardBody>
    </Card>
  );
}
