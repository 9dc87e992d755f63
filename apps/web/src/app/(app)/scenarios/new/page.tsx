import { TEMPLATE_IDS, type TemplateId } from '@poolbench/scenarios';
import { ScenarioEditor } from '~/components/scenarios/scenario-editor';
import { PageHeader } from '~/components/ui/page-header';

export const metadata = { title: 'New scenario' };

export default async function NewScenarioPage({
  searchParams,
}: {
  searchParams: Promise<{ template?: string }>;
}) {
  const { template } = await searchParams;
  const t = TEMPLATE_IDS.includes(template as TemplateId) ? (template as TemplateId) : undefined;
  return (
    <>
      <PageHeader
        crumbs={[{ href: '/scenarios', label: 'Scenarios' }]}
        title="New scenario"
        description="Every field is checked with the same schema the server and the worker use."
      />
      <ScenarioEditor defaultTemplate={t} />
    </>
  );
}
