import { get, type FieldErrors } from 'react-hook-form';

/**
 * The message of the error at a dotted path of the form's errors, or null. An error on a list
 * (field array) itself sits under `<list>.root`.
 */
export function fieldError(errors: FieldErrors, path: string): string | null {
  const e: unknown = get(errors, path);
  if (!e || typeof e !== 'object') return null;
  const own: unknown = Reflect.get(e, 'message');
  if (typeof own === 'string' && own) return own;
  const root: unknown = Reflect.get(e, 'root');
  const rootMessage: unknown =
    root && typeof root === 'object' ? Reflect.get(root, 'message') : undefined;
  return typeof rootMessage === 'string' && rootMessage ? rootMessage : null;
}
