'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { API_SCOPES, SCOPE_HELP, scopeAllowedFor, type ApiScope } from '~/lib/api-scopes';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf, problemsOf } from '~/lib/trpc/errors';
import { formatDateTime, formatRelative } from '~/lib/format';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { Alert } from '~/components/ui/feedback';
import { ErrorAlert, QueryState } from '~/components/ui/query-state';
import { Checkbox } from '~/components/ui/form';
import { ExpiresField } from '~/components/ui/expires-field';
import { TextField } from '~/components/ui/text-field';
import { Table, Td } from '~/components/ui/table';

/** Team API tokens for CI: admins create (shown once), see last use, and revoke. */
export function ApiTokens() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery(trpc.apiToken.list.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.apiToken.list.queryKey() });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>(['runs:read', 'runs:write']);
  const [expiresInDays, setExpiresInDays] = useState<number | null>(90);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const create = useMutation(
    trpc.apiToken.create.mutationOptions({
      onSuccess: (t) => {
        setCreated({ name: t.name, token: t.token });
        setName('');
        return refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiToken.revoke.mutationOptions({ onSettled: refresh }));
  const problems = problemsOf(create.error);
  const now = Date.now();

  return (
    <Card data-testid="api-tokens-card">
      <CardHeader
        title="API tokens"
        description={
          <>
            Tokens let CI start experiments and read results through the{' '}
            <Link className="text-brand-700 underline" href="/docs/api">
              REST API
            </Link>{' '}
            and the <code>poolbench</code> CLI. They act for the whole team.
          </>
        }
      />
      <CardBody className="space-y-4">
        <form
          className="grid items-start gap-3 sm:grid-cols-[1fr_10rem_auto]"
          onSubmit={(e) => {
            e.preventDefault();
            setCreated(null);
            create.mutate({
              name,
              scopes,
              expiresInDays,
            });
          }}
        >
          <TextField
            label="Name"
            help="Where it is used, e.g. github-actions."
            error={problems.name}
            value={name}
            onValue={setName}
            placeholder="github-actions"
          />
          <ExpiresField
            choices={[30, 90, 365]}
            value={expiresInDays}
            onChange={setExpiresInDays}
            error={problems.expiresInDays}
          />
          <Button type="submit" loading={create.isPending} className="sm:mt-6">
            <KeyRound className="size-4" /> Create token
          </Button>
          <fieldset className="space-y-2 sm:col-span-3">
            <legend className="mb-1 text-sm font-medium text-slate-800">Scopes</legend>
            {API_SCOPES.map((s) => (
              <Checkbox
                key={s}
                label={<code>{s}</code>}
                description={SCOPE_HELP[s]}
                checked={scopes.includes(s)}
                onChange={(e) =>
                  setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))
                }
              />
            ))}
            {problems.scopes ? (
              <p className="text-xs font-medium text-red-700" role="alert">
                {problems.scopes}
              </p>
            ) : null}
          </fieldset>
        </form>
        {create.isError && Object.keys(problems).length === 0 ? (
          <Alert tone="error">{messageOf(create.error)}</Alert>
        ) : null}
        {created ? (
          <div className="space-y-1" data-testid="new-api-token">
            <Alert tone="success" title={`Token "${created.name}" created`}>
              Copy it now: it is stored only as a hash and will not be shown again.
            </Alert>
            <CodeBlock code={created.token} label="API token" />
          </div>
        ) : null}
        <ErrorAlert error={revoke.error} />
        <QueryState query={list} rows={2} />
        {list.data?.length === 0 ? <p className="text-sm text-slate-500">No tokens yet.</p> : null}
        {list.data && list.data.length > 0 ? (
          <Table
            head={[
              'Name',
              'Token',
              'Scopes',
              'Created by',
              'Last used',
              'Expires',
              { label: 'Actions', className: 'text-right', hidden: true },
            ]}
          >
            {list.data.map((t) => {
              const expired = t.expiresAt !== null && new Date(t.expiresAt).getTime() <= now;
              return (
                <tr key={t.id} className={t.revokedAt || expired ? 'opacity-60' : undefined}>
                  <Td className="font-medium text-slate-900">
                    {t.name}
                    <span className="block text-xs font-normal text-slate-500">
                      created {formatDateTime(t.createdAt)}
                    </span>
                  </Td>
                  <Td>
                    <code className="font-mono text-xs">
                      {t.prefix}…{t.last4}
                    </code>
                  </Td>
                  <Td className="space-x-1">
                    {/* a scope the creator's current role no longer allows is refused with 403 */}
                    {t.scopes.map((s) => (
                      <Badge
                        key={s}
                        tone={
                          t.createdByRole && !scopeAllowedFor(t.createdByRole, s as ApiScope)
                            ? 'amber'
                            : undefined
                        }
                      >
                        {s}
                        {t.createdByRole && !scopeAllowedFor(t.createdByRole, s as ApiScope)
                          ? ' (inactive)'
                          : ''}
                      </Badge>
                    ))}
                  </Td>
                  <Td data-testid="token-creator">
                    <span className="block">{t.createdBy ?? 'deleted user'}</span>
                    {t.createdByEmail ? (
                      <span className="block text-xs text-slate-500">{t.createdByEmail}</span>
                    ) : null}
                    {t.createdByRole ? (
                      <Badge>{t.createdByRole}</Badge>
                    ) : (
                      <Badge tone="red">left the team: token no longer valid</Badge>
                    )}
                  </Td>
                  <Td>
                    {t.lastUsedAt ? (
                      <span title={formatDateTime(t.lastUsedAt)}>
                        {formatRelative(t.lastUsedAt, now)}
                      </span>
                    ) : (
                      'never'
                    )}
                  </Td>
                  <Td>{t.expiresAt ? formatDateTime(t.expiresAt) : 'never'}</Td>
                  <Td className="text-right">
                    {t.revokedAt ? (
                      <Badge tone="red">revoked</Badge>
                    ) : expired ? (
                      <Badge tone="amber">expired</Badge>
                    ) : (
                      <Button
                        size="sm"
                        variant="danger-ghost"
                        loading={revoke.isPending && revoke.variables?.id === t.id}
                        onClick={() => revoke.mutate({ id: t.id })}
                      >
                        Revoke
                      </Button>
                    )}
                  </Td>
                </tr>
              );
            })}
          </Table>
        ) : null}
      </CardBody>
    </Card>
  );
}
