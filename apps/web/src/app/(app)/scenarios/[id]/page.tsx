import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { SCRIPT_TEMPLATE } from '@poolbench/scenarios';
import { ScenarioEditor } from '~/components/scenarios/scenario-editor';
import { ScriptEditor } from '~/components/scenarios/script-editor';
import { PageHeader } from '~/components/ui/page-header';

export default async function ScenarioPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const s = await orNotFound((await serverCaller()).scenario.get({ id }));
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/scenarios', label: 'Scenarios' }]}
        title={s.name}
        description="Runs keep a snapshot of the scenario they used, so editing it does not change past results."
      />
      {s.templateId === SCRIPT_TEMPLATE ? (
        <ScriptEditor initial={{ id: s.id, name: s.name, scenario: s.scenario }} />
      ) : (
        <ScenarioEditor initial={{ id: s.id, name: s.name, scenario: s.scenario }} />
      )}
    </>
  );
}
