import { messageOf } from '~/lib/trpc/errors';
import { Alert, LoadingBlock } from './feedback';

/** Space around the state inside a card whose body has no padding of its own. */
const INSET = {
  4: { pad: 'p-4', margin: 'm-4' },
  5: { pad: 'p-5', margin: 'm-5' },
} as const;

/** What a query shows before its data: skeleton rows while it loads, its error if it failed. */
export function QueryState({
  query,
  rows,
  errorTitle,
  inset,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  rows?: number;
  errorTitle?: string;
  inset?: keyof typeof INSET;
}) {
  if (query.isPending)
    return inset ? (
      <div className={INSET[inset].pad}>
        <LoadingBlock rows={rows} />
      </div>
    ) : (
      <LoadingBlock rows={rows} />
    );
  if (query.isError)
    return (
      <Alert tone="error" title={errorTitle} className={inset && INSET[inset].margin}>
        {messageOf(query.error)}
      </Alert>
    );
  return null;
}

/** A failed request's message in an error alert; nothing while there is no error. */
export function ErrorAlert({
  error,
  title,
  className,
}: {
  error: unknown;
  title?: string;
  className?: string;
}) {
  if (!error) return null;
  return (
    <Alert tone="error" title={title} className={className}>
      {messageOf(error)}
    </Alert>
  );
}
