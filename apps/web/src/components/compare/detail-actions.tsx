'use client';

import { Download, GitCompareArrows } from 'lucide-react';
import Link from 'next/link';
import { isMeasuredRunStatus } from '@poolbench/contracts';
import { useRole } from '~/lib/hooks/use-role';
import { buttonClass } from '~/components/ui/button';
import { type CompareItem } from '~/lib/compare/selection';
import { SetBaselineButton } from './baseline-button';
import { ShareButton } from './share-dialog';
import { comparePath } from '@poolbench/contracts/links';

/** Buttons on a finished run's page: compare it, make it the baseline, share it, export it. */
export function RunActions({ runId, title }: { runId: string; title: string }) {
  const { can } = useRole();
  return (
    <>
      <Link
        href={comparePath([{ kind: 'run', runId }], { edit: true })}
        className={buttonClass('secondary')}
      >
        <GitCompareArrows className="size-4" /> Compare
      </Link>
      <a
        href={`/api/exports/runs/${runId}?format=csv`}
        className={buttonClass('ghost')}
        download
        title="Per-second series as CSV"
      >
        <Download className="size-4" /> CSV
      </a>
      {can('member') ? <SetBaselineButton item={{ kind: 'run', runId }} /> : null}
      {can('member') ? <ShareButton target={{ kind: 'run', runId }} defaultTitle={title} /> : null}
    </>
  );
}

/** Buttons on an experiment's page: compare all its configs (cells with measured runs), share it. */
export function ExperimentActions({
  e,
}: {
  e: {
    id: string;
    name: string;
    poolConfigs: Array<{ id: string }>;
    scenarios: Array<{ id: string }>;
    runs: Array<{ poolConfigId: string | null; scenarioId: string | null; status: string }>;
  };
}) {
  const { can } = useRole();
  const cells: CompareItem[] = e.poolConfigs.flatMap((pc) =>
    e.scenarios
      .filter((s) =>
        e.runs.some(
          (r) => r.poolConfigId === pc.id && r.scenarioId === s.id && isMeasuredRunStatus(r.status),
        ),
      )
      .map((s) => ({
        kind: 'cell' as const,
        experimentId: e.id,
        poolConfigId: pc.id,
        scenarioId: s.id,
      })),
  );
  if (cells.length === 0) return null;
  return (
    <>
      {cells.length >= 2 ? (
        <Link href={comparePath(cells.slice(0, 6))} className={buttonClass('primary')}>
          <GitCompareArrows className="size-4" /> Compare configs
        </Link>
      ) : null}
      {can('member') ? (
        <ShareButton target={{ kind: 'experiment', experimentId: e.id }} defaultTitle={e.name} />
      ) : null}
    </>
  );
}
