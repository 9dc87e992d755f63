import type { InspectedScript, ScriptScenarioRow } from '@poolbench/scenarios';

/** "Up to 5 VUs · 20s in all": what k6 said the script needs at once and in all. */
export function scriptNeeds(inspected: Pick<InspectedScript, 'maxVUs' | 'totalDuration'>): string {
  return (
    (inspected.maxVUs !== undefined ? `Up to ${inspected.maxVUs} VUs` : 'VUs unknown') +
    (inspected.totalDuration ? ` · ${inspected.totalDuration} in all` : '')
  );
}

/** A k6 script's own scenarios (`scriptScenarioRows` of its resolved options), one row each. */
export function ScriptScenariosTable({ rows }: { rows: ScriptScenarioRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">No k6 scenarios.</p>;
  return (
    <table className="w-full text-left text-xs" data-testid="script-scenarios">
      <thead className="text-slate-500">
        <tr>
          <th className="py-1 pr-2">Scenario</th>
          <th className="py-1 pr-2">Executor</th>
          <th className="py-1">Shape</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((s) => (
          <tr key={s.name}>
            <td className="py-1 pr-2 font-medium">{s.name}</td>
            <td className="py-1 pr-2">{s.executor}</td>
            <td className="py-1">{s.shape}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
