import { ScheduleList } from '~/components/schedules/schedule-list';

export const metadata = { title: 'Schedules' };

export default function Page() {
  return <ScheduleList />;
}
