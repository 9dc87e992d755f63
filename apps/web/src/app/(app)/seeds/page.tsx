import { SeedsPage } from '~/components/seeds/seeds-page';

export const metadata = { title: 'Seeds' };

export default function Page() {
  return <SeedsPage />;
}
