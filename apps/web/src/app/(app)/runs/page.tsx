import { RunList } from '~/components/runs/run-list';

export const metadata = { title: 'Runs' };

export default function Page() {
  return <RunList />;
}
