import { SCRIPT_TEMPLATE, ScriptScenarioSchema, scriptScenarioRows } from '@poolbench/scenarios';
import { formatBytes, formatDuration } from '~/lib/format';
import { ScriptScenariosTable, scriptNeeds } from '~/components/scenarios/script-scenarios-table';

/**
 * A team's k6 script as the run's scenario card shows it: what k6 resolved when the script was
 * checked (its own scenarios, VUs, total time), the run's stop time, and the files
 * the script opens. `params` is the snapshot's params column (the scenario without its template and
 * thresholds; the thresholds have their own card).
 */
export function ScriptScenarioDetails({ params }: { params: Record<string, unknown> | undefined }) {
  const parsed = ScriptScenarioSchema.safeParse({
    ...params,
    template: SCRIPT_TEMPLATE,
    thresholds: [],
  });
  if (!parsed.success)
    return <p className="text-sm text-slate-500">The script's settings could not be read.</p>;
  const s = parsed.data;
  const files = Object.entries(s.files);
  return (
    <div className="space-y-3 text-sm" data-testid="script-scenario-details">
      {s.inspected ? (
        <>
          <p>{scriptNeeds(s.inspected)}</p>
          <ScriptScenariosTable rows={scriptScenarioRows(s.inspected.options)} />
        </>
      ) : (
        <p className="text-slate-500">Not checked when it was saved.</p>
      )}
      <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-1.5">
        <dt className="text-slate-500">stopped after</dt>
        <dd className="font-mono text-xs">{formatDuration(s.maxDurationMs)}</dd>
        <dt className="text-slate-500">files</dt>
        <dd className="font-mono text-xs [overflow-wrap:anywhere]">
          {files.length === 0
            ? 'none'
            : files
                .map(([n, c]) => `${n} (${formatBytes(new TextEncoder().encode(c).length)})`)
                .join(', ')}
        </dd>
      </dl>
    </div>
  );
}
