import { TargetList } from '~/components/targets/target-list';

export const metadata = { title: 'Targets' };

export default function TargetsPage() {
  return <TargetList />;
}
