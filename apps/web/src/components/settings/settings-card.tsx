import type { ReactNode } from 'react';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { QueryState } from '~/components/ui/query-state';

/**
 * A team setting's card: what the setting does, then `children` with the setting as read (a
 * placeholder while it loads, the error if it could not be read).
 */
export function SettingsCard<T>({
  title,
  description,
  query,
  children,
}: {
  title: string;
  description: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (setting: T) => ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <CardBody className="space-y-3">
        <QueryState query={query} rows={1} />
        {query.data !== undefined ? children(query.data) : null}
      </CardBody>
    </Card>
  );
}
