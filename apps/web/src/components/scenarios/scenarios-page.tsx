'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Layers, Pencil, Plus, Sparkles, Upload } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { generateScenario, SCRIPT_TEMPLATE, TEMPLATES, TEMPLATE_IDS } from '@poolbench/scenarios';
import { useTRPC } from '~/lib/trpc/react';
import { plural } from '~/lib/plural';
import { useRole } from '~/lib/hooks/use-role';
import { formatDuration } from '~/lib/format';
import { Badge } from '~/components/ui/badge';
import { Button, ButtonLink } from '~/components/ui/button';
import { RoleGated } from '~/components/ui/role-gated';
import { EmptyState } from '~/components/ui/feedback';
import { ErrorAlert, QueryState } from '~/components/ui/query-state';
import { PageHeader } from '~/components/ui/page-header';
import { Section } from '~/components/ui/section';
import { Table, Td } from '~/components/ui/table';
import { ProfileChart } from './profile-chart';
import { TEMPLATE_DEFAULTS } from './template-defaults';
import { ApplyPresetDialog, type PresetCard } from './apply-preset-dialog';
import { RowDeleteButton } from '~/components/ui/row-delete-button';

export function ScenariosPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { can } = useRole();
  const scenarios = useQuery(trpc.scenario.list.queryOptions());
  const presets = useQuery(trpc.scenario.presets.queryOptions());
  const archive = useMutation(
    trpc.scenario.archive.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.scenario.list.queryKey() }),
    }),
  );
  const [preset, setPreset] = useState<PresetCard | null>(null);
  const templateProfiles = useMemo(
    () =>
      Object.fromEntries(
        TEMPLATE_IDS.map((t) => [
          t,
          generateScenario({
            template: t,
            params: TEMPLATE_DEFAULTS[t],
            requests: [{ path: '/' }],
          }),
        ]),
      ),
    [],
  );

  return (
    <>
      <PageHeader
        title="Scenarios"
        description="Load shapes generated from validated templates. Start from a template or reproduce a seed write-up in one click."
        actions={
          <RoleGated
            min="member"
            what="create scenarios"
            label={
              <>
                <Plus className="size-4" /> New scenario
              </>
            }
          >
            <div className="flex gap-2">
              <ButtonLink href="/scenarios/import" variant="secondary">
                <Upload className="size-4" /> Import a k6 script
              </ButtonLink>
              <ButtonLink href="/scenarios/new">
                <Plus className="size-4" /> New scenario
              </ButtonLink>
            </div>
          </RoleGated>
        }
      />

      <Section id="presets-h" title="Seed presets" icon={Sparkles} className="mb-10">
        <QueryState query={presets} rows={2} />
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
          {presets.data?.map((p) => (
            <article
              key={p.id}
              className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid={`preset-${p.id}`}
            >
              <div className="flex items-center gap-2">
                <Badge tone="violet">Seed {p.seed}</Badge>
                <span className="text-xs text-slate-500">{plural(p.repeats, 'repeat')}</span>
              </div>
              <h3 className="mt-2 text-sm font-semibold text-slate-900">{p.title}</h3>
              <p className="mt-1 line-clamp-3 flex-1 text-xs text-slate-500">{p.description}</p>
              <p className="mt-2 text-xs text-slate-600">
                {p.poolConfigs.map((c) => c.name).join(' vs ')} ·{' '}
                {formatDuration(p.scenarios.reduce((a, s) => a + s.estimatedDurationMs, 0))} per run
                at scale {p.defaultScale}
              </p>
              {can('member') ? (
                <Button size="sm" variant="secondary" className="mt-3" onClick={() => setPreset(p)}>
                  Use preset
                </Button>
              ) : null}
            </article>
          ))}
        </div>
      </Section>

      <Section id="yours-h" title="Your scenarios" className="mb-10">
        <QueryState query={scenarios} />
        <ErrorAlert error={archive.error} className="mb-3" />
        {scenarios.data?.length === 0 ? (
          <EmptyState icon={Layers} title="No scenarios yet">
            Use a seed preset above or start from a template below.
          </EmptyState>
        ) : null}
        {scenarios.data && scenarios.data.length > 0 ? (
          <Table
            head={[
              'Name',
              'Template',
              'Duration',
              'Max VUs',
              { label: 'Actions', className: 'text-right' },
            ]}
          >
            {scenarios.data.map((s) => (
              <tr key={s.id}>
                <Td className="font-medium text-slate-900">
                  <Link
                    href={`/scenarios/${s.id}`}
                    className="hover:text-brand-700 hover:underline"
                  >
                    {s.name}
                  </Link>
                  {s.presetId ? (
                    <Badge tone="violet" className="ml-2">
                      preset
                    </Badge>
                  ) : null}
                </Td>
                <Td>
                  {s.templateId === SCRIPT_TEMPLATE
                    ? 'Your k6 script'
                    : (TEMPLATES[s.templateId as keyof typeof TEMPLATES]?.label ?? s.templateId)}
                </Td>
                <Td className="tabular-nums">{formatDuration(s.estimatedDurationMs)}</Td>
                <Td className="tabular-nums">{s.maxVUs ?? '—'}</Td>
                <Td className="text-right">
                  <ButtonLink
                    size="sm"
                    variant="ghost"
                    href={`/scenarios/${s.id}`}
                    aria-label={`Open ${s.name}`}
                  >
                    <Pencil className="size-3.5" />
                  </ButtonLink>
                  {can('member') ? (
                    <RowDeleteButton
                      label={`Archive ${s.name}`}
                      question={`Archive ${s.name}?`}
                      onConfirm={() => archive.mutate({ id: s.id })}
                    />
                  ) : null}
                </Td>
              </tr>
            ))}
          </Table>
        ) : null}
      </Section>

      <Section id="templates-h" title="Templates">
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {TEMPLATE_IDS.map((t) => (
            <Link
              key={t}
              href={`/scenarios/new?template=${t}`}
              className="group rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition hover:border-brand-300 hover:shadow focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <div className="flex items-center justify-between">
                <h3 className="text-sm font-semibold text-slate-900 group-hover:text-brand-700">
                  {TEMPLATES[t].label}
                </h3>
                <Badge tone={TEMPLATES[t].model === 'open' ? 'amber' : 'blue'}>
                  {TEMPLATES[t].model}
                </Badge>
              </div>
              <div className="my-3 rounded-md bg-slate-50">
                <ProfileChart profile={templateProfiles[t]!.profile} height={72} />
              </div>
              <p className="line-clamp-2 text-xs text-slate-500">{TEMPLATES[t].description}</p>
            </Link>
          ))}
        </div>
      </Section>
      <ApplyPresetDialog preset={preset} onClose={() => setPreset(null)} />
    </>
  );
}
