import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { TargetDetail } from '~/components/targets/target-detail';

export default async function TargetPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await orNotFound((await serverCaller()).target.get({ id }));
  return <TargetDetail id={id} />;
}
