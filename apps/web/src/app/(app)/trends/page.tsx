import { TrendsPage } from '~/components/trends/trends-page';

export const metadata = { title: 'Trends' };

export default function Page() {
  return <TrendsPage />;
}
