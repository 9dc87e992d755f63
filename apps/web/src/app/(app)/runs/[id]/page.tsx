import { orNotFound, serverCaller } from '~/server/api/server-caller';
import { RunDetail } from '~/components/runs/run-detail';

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await orNotFound((await serverCaller()).run.get({ id }));
  return <RunDetail id={id} />;
}
