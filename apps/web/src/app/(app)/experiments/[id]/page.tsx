import { orNotFoundUnlessElsewhere } from '~/server/api/or-elsewhere';
import { ExperimentDetail } from '~/components/experiments/experiment-detail';

export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ queue?: string }>;
}) {
  const { id } = await params;
  await orNotFoundUnlessElsewhere('experiment', id);
  return (
    <ExperimentDetail id={id} queueUnavailable={(await searchParams).queue === 'unavailable'} />
  );
}
