import superjson from 'superjson';

/** A failed page-data load, shaped like a tRPC error where pages read the code. */
export class PageDataError extends Error {
  constructor(
    message: string,
    readonly data: { code: 'NOT_FOUND' | 'UNAUTHORIZED' | 'BAD_REQUEST' | 'INTERNAL_SERVER_ERROR' },
  ) {
    super(message);
  }
}

const CODES = { 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 400: 'BAD_REQUEST' } as const;

/**
 * One of the page-data routes (`/api/runs/[id]/data`, `/api/compare/data`): superjson, as tRPC
 * would send it. The browser revalidates with the ETag, so finished results come back 304 from
 * its own cache.
 */
export async function fetchPageData<T>(url: string): Promise<T> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new PageDataError(body?.detail ?? `HTTP ${res.status}`, {
      code: CODES[res.status as keyof typeof CODES] ?? 'INTERNAL_SERVER_ERROR',
    });
  }
  return superjson.deserialize<T>(
    (await res.json()) as Parameters<typeof superjson.deserialize>[0],
  );
}
