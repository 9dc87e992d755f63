import { headers } from 'next/headers';
import { TRPCError } from '@trpc/server';
import { notFound } from 'next/navigation';
import { createCaller } from './root';
import { createContext } from './create-context';

/** The router called from server components with the request's session. */
export async function serverCaller() {
  return createCaller(await createContext({ headers: await headers() }));
}

/** Renders the 404 page for ids that do not exist in the active team (or in any team). */
export async function orNotFound<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof TRPCError && (e.code === 'NOT_FOUND' || e.code === 'BAD_REQUEST')) notFound();
    throw e;
  }
}
