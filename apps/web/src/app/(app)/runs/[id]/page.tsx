import { orNotFoundUnlessElsewhere } from '~/server/api/or-elsewhere';
import { RunDetail } from '~/components/runs/run-detail';

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await orNotFoundUnlessElsewhere('run', id);
  return <RunDetail id={id} />;
}
