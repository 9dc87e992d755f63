'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, GitCompare, Pencil, PlugZap, Plus, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { databaseOf, poolStrategyMeta, runtimeOf, type PoolStrategy } from '@poolbench/scenarios';
import { describeLabEnvironment, RUNTIME_LABELS } from '@poolbench/contracts';
import { useTRPC } from '~/lib/trpc/react';
import { messageOf } from '~/lib/trpc/errors';
import { useRole } from '~/lib/hooks/use-role';
import { Badge } from '~/components/ui/badge';
import { Button, ButtonLink } from '~/components/ui/button';
import { GatedButtonLink, RoleGated } from '~/components/ui/role-gated';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { Alert, EmptyState, LoadingBlock } from '~/components/ui/feedback';
import { QueryState } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td } from '~/components/ui/table';
import { TestConnection } from './test-connection';
import { NoiseFloorCard } from './noise-floor-card';
import { formatParam } from '~/components/pool-configs/format-param';
import { ConfirmButton } from '~/components/ui/confirm-button';
import { RowDeleteButton } from '~/components/ui/row-delete-button';

export function TargetDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const { can } = useRole();
  const target = useQuery(trpc.target.get.queryOptions({ id }));
  const configs = useQuery(trpc.poolConfig.list.queryOptions({ targetId: id }));
  const [picked, setPicked] = useState<string[]>([]);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.poolConfig.list.queryKey() });
  const duplicate = useMutation(trpc.poolConfig.duplicate.mutationOptions({ onSuccess: refresh }));
  const archive = useMutation(trpc.poolConfig.archive.mutationOptions({ onSuccess: refresh }));
  const archiveTarget = useMutation(
    trpc.target.archive.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.target.list.queryKey() });
        router.push('/targets');
      },
    }),
  );

  if (target.isPending) return <LoadingBlock rows={5} />;
  if (target.isError)
    return (
      <Alert tone="error" title="Target not found">
        {messageOf(target.error)}
      </Alert>
    );
  const t = target.data;
  const rd = t.requestDefaults;
  const setup = t.managed?.setup;
  const mutErr = duplicate.error ?? archive.error ?? archiveTarget.error;

  return (
    <>
      <PageHeader
        crumbs={[{ href: '/targets', label: 'Targets' }]}
        title={
          <span className="flex items-center gap-3">
            {t.name}{' '}
            <Badge tone={t.kind === 'managed' ? 'violet' : 'blue'}>
              {t.kind === 'managed' ? 'Managed lab target' : 'URL target'}
            </Badge>
          </span>
        }
        actions={
          can('admin') ? (
            <>
              <ButtonLink variant="secondary" href={`/targets/${t.id}/edit`}>
                <Pencil className="size-4" /> Edit
              </ButtonLink>
              <ConfirmButton
                variant="danger-ghost"
                loading={archiveTarget.isPending}
                question={`Archive ${t.name}?`}
                detail="Its runs stay."
                confirmLabel="Archive"
                onConfirm={() => archiveTarget.mutate({ id: t.id })}
              >
                <Trash2 className="size-4" /> Archive
              </ConfirmButton>
            </>
          ) : null
        }
      />
      {mutErr ? (
        <Alert tone="error" className="mb-4">
          {messageOf(mutErr)}
        </Alert>
      ) : null}
      {/* min-w-0: a grid column as wide as the screen, its tables scrolling inside their cards */}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <CardHeader
              title="Pool configs"
              description="Each run applies one of these to the target. Pick two to compare them side by side."
              actions={
                <>
                  {picked.length === 2 ? (
                    <ButtonLink
                      size="sm"
                      variant="secondary"
                      href={`/targets/${t.id}/pool-configs/diff?a=${picked[0]}&b=${picked[1]}`}
                    >
                      <GitCompare className="size-4" /> Compare
                    </ButtonLink>
                  ) : null}
                  <GatedButtonLink
                    min="member"
                    what="create pool configs"
                    size="sm"
                    href={`/targets/${t.id}/pool-configs/new`}
                    icon={Plus}
                  >
                    Add pool config
                  </GatedButtonLink>
                </>
              }
            />
            <CardBody className="p-0">
              <QueryState query={configs} rows={2} inset={5} />
              {configs.data?.length === 0 ? (
                <div className="p-5">
                  <EmptyState title="No pool configs yet">
                    Add at least two (for example lazy and prewarm) to compare them in an
                    experiment.
                  </EmptyState>
                </div>
              ) : null}
              {configs.data && configs.data.length > 0 ? (
                <Table
                  className="rounded-none border-0 shadow-none"
                  head={[
                    { label: 'Compare', className: 'w-8', hidden: true },
                    'Name',
                    'Strategy',
                    'Parameters',
                    { label: 'Actions', className: 'text-right' },
                  ]}
                >
                  {configs.data.map((c) => {
                    const meta = safeMeta(c.strategy);
                    const params = Object.entries(c.params);
                    return (
                      <tr key={c.id} className="align-top">
                        <Td>
                          <input
                            type="checkbox"
                            aria-label={`Compare ${c.name}`}
                            className="accent-brand-600"
                            checked={picked.includes(c.id)}
                            onChange={(e) =>
                              setPicked(
                                e.target.checked
                                  ? [...picked, c.id].slice(-2)
                                  : picked.filter((x) => x !== c.id),
                              )
                            }
                          />
                        </Td>
                        <Td className="font-medium text-slate-900">{c.name}</Td>
                        <Td>
                          <Badge tone="brand">{meta?.label ?? c.strategy}</Badge>
                          {c.instanceCount > 1 ? (
                            <span className="ml-2 text-xs text-slate-500">
                              × {c.instanceCount} instances
                            </span>
                          ) : null}
                        </Td>
                        <Td className="whitespace-normal">
                          <div className="flex max-w-md flex-wrap gap-1">
                            {params.length === 0 ? (
                              <span className="text-xs text-slate-500">defaults</span>
                            ) : null}
                            {params.slice(0, 4).map(([k, v]) => {
                              const pm = meta?.params.find((p) => p.key === k);
                              return (
                                <span
                                  key={k}
                                  className="rounded bg-slate-100 px-1.5 py-0.5 text-[11px] text-slate-700"
                                >
                                  {pm?.label ?? k}{' '}
                                  <strong className="font-semibold">
                                    {formatParam(pm?.unit, v)}
                                  </strong>
                                </span>
                              );
                            })}
                            {params.length > 4 ? (
                              <span className="px-1 py-0.5 text-[11px] text-slate-500">
                                +{params.length - 4} more
                              </span>
                            ) : null}
                          </div>
                        </Td>
                        <Td className="text-right">
                          {can('member') ? (
                            <div className="flex justify-end gap-1">
                              <ButtonLink
                                size="sm"
                                variant="ghost"
                                href={`/targets/${t.id}/pool-configs/${c.id}`}
                                aria-label={`Edit ${c.name}`}
                              >
                                <Pencil className="size-3.5" />
                              </ButtonLink>
                              <Button
                                size="sm"
                                variant="ghost"
                                aria-label={`Duplicate ${c.name}`}
                                onClick={() => duplicate.mutate({ id: c.id })}
                              >
                                <Copy className="size-3.5" />
                              </Button>
                              <RowDeleteButton
                                label={`Archive ${c.name}`}
                                question={`Archive ${c.name}?`}
                                onConfirm={() => archive.mutate({ id: c.id })}
                              />
                            </div>
                          ) : null}
                        </Td>
                      </tr>
                    );
                  })}
                </Table>
              ) : null}
            </CardBody>
          </Card>
          <NoiseFloorCard
            targetId={t.id}
            poolConfigs={(configs.data ?? []).map((c) => ({ id: c.id, name: c.name }))}
          />
        </div>
        <div className="min-w-0 space-y-6">
          <Card>
            <CardHeader title="Connection" />
            <CardBody className="space-y-4 text-sm">
              <dl className="space-y-2">
                <Row label="Default request">
                  <span className="font-mono text-xs">
                    {rd.method ?? 'GET'} {rd.path ?? '/'}
                    {rd.query && Object.keys(rd.query).length > 0
                      ? `?${new URLSearchParams(rd.query).toString()}`
                      : ''}
                  </span>
                </Row>
                {t.kind === 'url' ? (
                  <>
                    <Row label="Base URLs">
                      {t.baseUrls.map((u) => (
                        <div key={u} className="font-mono text-xs">
                          {u}
                        </div>
                      ))}
                    </Row>
                    <Row label="Readiness">{t.readinessPath ?? '—'}</Row>
                    <Row label="Metrics">{t.metricsUrl ?? '—'}</Row>
                    <Row label="Apply hook">{t.applyHookUrl ?? '—'}</Row>
                    <Row label="Secret headers">
                      {t.secretHeaderNames.length
                        ? t.secretHeaderNames.map((h) => (
                            <Badge key={h} className="mr-1">
                              {h}: set
                            </Badge>
                          ))
                        : '—'}
                    </Row>
                    <Row label="DB monitor DSN">{t.hasMonitorDsn ? <Badge>set</Badge> : '—'}</Row>
                  </>
                ) : (
                  <>
                    <Row label="Runtime">
                      <span data-testid="target-runtime">
                        {RUNTIME_LABELS[runtimeOf(t.managed?.environment)]}
                      </span>
                    </Row>
                    <Row label="Database">
                      <span data-testid="target-database">
                        {databaseOf(t.managed?.environment) === 'mariadb' ? 'MariaDB' : 'Postgres'}
                      </span>
                    </Row>
                    {otherEnvironment(t.managed?.environment) ? (
                      <Row label="Environment">{otherEnvironment(t.managed?.environment)}</Row>
                    ) : null}
                  </>
                )}
                {t.kind === 'url' ? null : (
                  <Row label="Data set">
                    {setup
                      ? Object.entries(setup)
                          .map(([k, v]) => `${k} ${(v ?? 0).toLocaleString('en-US')}`)
                          .join(' · ')
                      : 'defaults'}
                  </Row>
                )}
              </dl>
              {t.kind === 'url' ? (
                <RoleGated
                  min="member"
                  what="probe targets"
                  variant="secondary"
                  label={
                    <>
                      <PlugZap className="size-4" /> Test connection
                    </>
                  }
                >
                  <TestConnection targetId={t.id} />
                </RoleGated>
              ) : (
                <p className="text-xs text-slate-500" data-testid="managed-no-probe">
                  No connection test: the worker starts this target for every run and stops it
                  afterwards, so between runs there is nothing to probe. Each run's page shows its
                  cold start and its pool.
                </p>
              )}
            </CardBody>
          </Card>
          <Card>
            <CardBody className="space-y-2 text-sm">
              <Link
                className="font-medium text-brand-700 hover:underline"
                href={`/runs?targetId=${t.id}`}
              >
                Runs on this target →
              </Link>
              {can('member') ? (
                <div>
                  <Link
                    className="font-medium text-brand-700 hover:underline"
                    href={`/experiments/new?targetId=${t.id}`}
                  >
                    New experiment on this target →
                  </Link>
                </div>
              ) : null}
            </CardBody>
          </Card>
        </div>
      </div>
    </>
  );
}

/** The environment's fields besides its runtime and database ("database link RTT 50 ms"), or ''. */
function otherEnvironment(env: Parameters<typeof describeLabEnvironment>[0]) {
  return env ? describeLabEnvironment({ ...env, runtime: undefined, database: undefined }) : '';
}

function safeMeta(strategy: string) {
  try {
    return poolStrategyMeta(strategy as PoolStrategy);
  } catch {
    return null;
  }
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-800">{children}</dd>
    </div>
  );
}
