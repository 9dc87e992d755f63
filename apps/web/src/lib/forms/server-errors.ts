import { useEffect } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { problemsOf } from '~/lib/trpc/errors';

/**
 * Puts a mutation's field problems (tRPC `data.problems`, paths as data) on the form's fields, so a
 * server-side error lands under its field and clears like any other when the field changes.
 * `toField` maps a server path to a form path (null: not a field of this form); the mappers are
 * plain string functions shared with tests, so the path is taken as one of this form's.
 */
export function useServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  toField: (path: string) => string | null,
) {
  useEffect(() => {
    for (const [path, message] of Object.entries(problemsOf(error))) {
      const field = toField(path);
      if (field) setError(field as FieldPath<T>, { type: 'server', message });
    }
    // toField is a pure mapping: re-running on its identity would re-set errors the user cleared.
  }, [error, setError]);
}
