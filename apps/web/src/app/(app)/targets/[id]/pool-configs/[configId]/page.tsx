import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { PoolConfigForm } from '~/components/pool-configs/pool-config-form';
import { PageHeader } from '~/components/ui/page-header';
import { targetCrumbs } from '~/components/targets/target-crumbs';

export default async function EditPoolConfigPage({
  params,
}: {
  params: Promise<{ id: string; configId: string }>;
}) {
  const { id, configId } = await params;
  const caller = await serverCaller();
  const t = await orNotFound(caller.target.get({ id }));
  const pc = await orNotFound(caller.poolConfig.get({ id: configId }));
  return (
    <div className="max-w-5xl">
      <PageHeader
        crumbs={targetCrumbs(t)}
        title={`Edit ${pc.name}`}
        description="Runs already made keep a snapshot of the config they used."
      />
      <PoolConfigForm
        targetId={id}
        initial={pc}
        environment={
          t.kind === 'managed'
            ? { ...(t.managed?.environment ?? {}), ...(pc.environment ?? {}) }
            : undefined
        }
      />
    </div>
  );
}
