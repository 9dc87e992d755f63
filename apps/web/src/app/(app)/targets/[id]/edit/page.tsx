import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { TargetForm } from '~/components/targets/target-form';
import { PageHeader } from '~/components/ui/page-header';
import { targetCrumbs } from '~/components/targets/target-crumbs';

export default async function EditTargetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const t = await orNotFound((await serverCaller()).target.get({ id }));
  return (
    <div className="max-w-4xl">
      <PageHeader crumbs={targetCrumbs(t)} title={`Edit ${t.name}`} />
      <TargetForm
        initial={{ ...t, setup: t.managed?.setup, environment: t.managed?.environment ?? {} }}
      />
    </div>
  );
}
