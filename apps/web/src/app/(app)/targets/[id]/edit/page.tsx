import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { TargetForm } from '~/components/targets/target-form';
import { PageHeader } from '~/components/ui/page-header';
import { LabEnvironmentSchema } from '@poolbench/scenarios';

export default async function EditTargetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const t = await orNotFound((await serverCaller()).target.get({ id }));
  const managed = t.managed as { setup?: { rows: number; fields: number; roles: number; permissions: number; shards: number }; environment?: unknown } | null;
  // parsed where read: a stored environment written by an older version must not reach the form unchecked
  const environment = LabEnvironmentSchema.safeParse(managed?.environment ?? {});
  return (
    <div className="max-w-4xl">
      <PageHeader crumbs={[{ href: '/targets', label: 'Targets' }, { href: `/targets/${id}`, label: t.name }]} title={`Edit ${t.name}`} />
      <TargetForm initial={{ ...t, requestDefaults: t.requestDefaults as never, setup: managed?.setup, environment: environment.success ? environment.data : {} }} />
    </div>
  );
}
