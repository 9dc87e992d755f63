'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useState } from 'react';
import type { Role } from '@poolbench/db';
import { ROLES, ROLE_HELP } from '~/lib/schemas/role';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { formatDateTime } from '~/lib/format';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { Alert } from '~/components/ui/feedback';
import { QueryState } from '~/components/ui/query-state';
import { Field, Options, Select } from '~/components/ui/form';
import { TextField } from '~/components/ui/text-field';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td } from '~/components/ui/table';
import { ApiTokens } from './api-tokens';
import { Allowlist } from './allowlist-settings';
import { InstallationRanges } from './installation-settings';
import { Retention } from './retention-settings';
import { FleetLimits } from './fleet-limits-settings';
import { ScriptPolicy } from './script-policy-settings';
import { ShareLinksSettings } from '~/components/share/share-links-settings';
import { RowDeleteButton } from '~/components/ui/row-delete-button';

function Members() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const me = useQuery(trpc.team.me.queryOptions());
  const members = useQuery(trpc.team.members.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.team.members.queryKey() });
  const change = useMutation(trpc.team.changeRole.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.team.removeMember.mutationOptions({ onSettled: refresh }));
  const err = change.error ?? remove.error;
  return (
    <Card>
      <CardHeader
        title="Members"
        description="Viewers read, members run experiments, admins manage targets, the allowlist and members."
      />
      <CardBody className="p-0">
        {err ? (
          <Alert tone="error" className="m-4">
            {messageOf(err)}
          </Alert>
        ) : null}
        <QueryState query={members} rows={2} inset={4} />
        {members.data ? (
          <Table
            className="rounded-none border-0 shadow-none"
            head={[
              'Name',
              'Email',
              'Role',
              'Joined',
              { label: 'Actions', className: 'text-right', hidden: true },
            ]}
          >
            {members.data.map((m) => (
              <tr key={m.membershipId}>
                <Td className="font-medium text-slate-900">
                  {m.name} {m.id === me.data?.user.id ? <Badge className="ml-1">you</Badge> : null}
                </Td>
                <Td>{m.email}</Td>
                <Td>
                  {can('admin') ? (
                    <Select
                      aria-label={`Role of ${m.name}`}
                      className="h-8 w-32"
                      value={m.role}
                      onChange={(e) =>
                        change.mutate({
                          membershipId: m.membershipId,
                          role: e.target.value as Role,
                        })
                      }
                    >
                      <Options items={ROLES} />
                    </Select>
                  ) : (
                    <Badge tone="brand">{m.role}</Badge>
                  )}
                </Td>
                <Td className="text-xs text-slate-500">{formatDateTime(m.joinedAt)}</Td>
                <Td className="text-right">
                  {can('admin') && m.id !== me.data?.user.id ? (
                    <RowDeleteButton
                      label={`Remove ${m.name}`}
                      question={`Remove ${m.name} from the team?`}
                      onConfirm={() => remove.mutate({ membershipId: m.membershipId })}
                    />
                  ) : null}
                </Td>
              </tr>
            ))}
          </Table>
        ) : null}
      </CardBody>
    </Card>
  );
}

function Invitations() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery(trpc.team.invitations.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.team.invitations.queryKey() });
  const [role, setRole] = useState<Role>('member');
  const [email, setEmail] = useState('');
  const invite = useMutation(trpc.team.invite.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.team.revokeInvitation.mutationOptions({ onSuccess: refresh }));
  const link = invite.data ? `${window.location.origin}/invite/${invite.data.token}` : null;
  return (
    <Card>
      <CardHeader
        title="Invitations"
        description="Invite by link. The link is shown once and expires after 7 days; only its hash is stored."
      />
      <CardBody className="space-y-4">
        <form
          className="grid items-end gap-3 sm:grid-cols-[1fr_10rem_auto]"
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ role, email });
          }}
        >
          <TextField
            label="Email"
            optional
            help="Only this address can accept, if given."
            error={problemsOf(invite.error).email}
            value={email}
            onValue={setEmail}
            type="email"
            placeholder="colleague@example.com"
          />
          <Field label="Role" help={ROLE_HELP[role]}>
            {(p) => (
              <Select {...p} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                <Options items={ROLES} />
              </Select>
            )}
          </Field>
          <Button type="submit" loading={invite.isPending} className="mb-5">
            <Link2 className="size-4" /> Create link
          </Button>
        </form>
        {invite.isError && !problemsOf(invite.error).email ? (
          <Alert tone="error">{messageOf(invite.error)}</Alert>
        ) : null}
        {link ? (
          <div className="space-y-1">
            <Alert tone="success" title="Invitation link created">
              Copy it now: it will not be shown again.
            </Alert>
            <CodeBlock code={link} label="Invitation link" />
          </div>
        ) : null}
        {list.data && list.data.length > 0 ? (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {list.data.map((i) => (
              <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span>
                  <Badge tone="brand">{i.role}</Badge>{' '}
                  <span className="ml-1 text-slate-700">{i.email ?? 'anyone with the link'}</span>
                  <span className="ml-2 text-xs text-slate-500">
                    expires {formatDateTime(i.expiresAt)}
                  </span>
                </span>
                <Button
                  size="sm"
                  variant="danger-ghost"
                  onClick={() => revoke.mutate({ id: i.id })}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : list.isSuccess ? (
          <p className="text-sm text-slate-500">No open invitations.</p>
        ) : null}
      </CardBody>
    </Card>
  );
}

export function SettingsPage() {
  const { can, role } = useRole();
  return (
    <>
      <PageHeader
        title="Settings"
        description={role ? `Your role in this team: ${role}.` : undefined}
      />
      <div className="space-y-6">
        <Members />
        {can('admin') ? <Invitations /> : null}
        {can('admin') ? <ApiTokens /> : null}
        <Allowlist />
        <InstallationRanges />
        <ShareLinksSettings />
        <FleetLimits />
        <ScriptPolicy />
        <Retention />
      </div>
    </>
  );
}
