import { Button } from './button';

/** The button under a paged list that fetches its next page; nothing once there is none. */
export function LoadMore({
  query,
  children = 'Load more',
}: {
  query: {
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => Promise<unknown>;
  };
  children?: React.ReactNode;
}) {
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button
        variant="secondary"
        onClick={() => void query.fetchNextPage()}
        loading={query.isFetchingNextPage}
      >
        {children}
      </Button>
    </div>
  );
}
