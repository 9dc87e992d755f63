import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { PoolConfigForm } from '~/components/pool-configs/pool-config-form';
import { PageHeader } from '~/components/ui/page-header';
import { targetCrumbs } from '~/components/targets/target-crumbs';

export default async function NewPoolConfigPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const t = await orNotFound((await serverCaller()).target.get({ id }));
  return (
    <div className="max-w-5xl">
      <PageHeader
        crumbs={targetCrumbs(t)}
        title="New pool config"
        description={`Applied to ${t.name} for each run that uses it.`}
      />
      <PoolConfigForm
        targetId={id}
        environment={t.kind === 'managed' ? (t.managed?.environment ?? null) : undefined}
      />
    </div>
  );
}
