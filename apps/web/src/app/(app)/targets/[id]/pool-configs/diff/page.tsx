import { PoolConfigDiff } from '~/components/pool-configs/pool-config-diff';
import { Alert } from '~/components/ui/feedback';

export default async function DiffPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ a?: string; b?: string }>;
}) {
  const { id } = await params;
  const { a, b } = await searchParams;
  if (!a || !b)
    return <Alert tone="warning">Pick two pool configs on the target page to compare them.</Alert>;
  return <PoolConfigDiff targetId={id} a={a} b={b} />;
}
