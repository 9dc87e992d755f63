import { toNestErrors } from '@hookform/resolvers';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';

/** Where a problem the form has no field for is shown (the form's `errors.root.form`). */
export const FORM_ROOT = 'root.form';

/** `{ a: { 0: { b: FieldError } } }` -> `[['a.0.b', FieldError]]` */
function flatten(errors: FieldErrors, prefix = ''): Array<[string, FieldError]> {
  const out: Array<[string, FieldError]> = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    // zodResolver files an error on a list itself under `<list>.root`: it is the list's problem
    const path = key === 'root' && prefix ? prefix : prefix ? `${prefix}.${key}` : key;
    if (typeof Reflect.get(value, 'type') === 'string') out.push([path, value as FieldError]);
    else out.push(...flatten(value as FieldErrors, path));
  }
  return out;
}

/**
 * The server's own zod schema as the form's resolver, for forms whose values are shaped for
 * editing (rows instead of a record, text instead of a list, the last params of each template):
 * `toInput` turns the values into the request body, zodResolver checks that with the schema the
 * procedure's `.input()` uses, and `toField` puts each problem (a request path) on the form field
 * it is about; null puts it on the form as a whole (FORM_ROOT). Valid values resolve to the
 * schema's output, exactly what the server will parse.
 */
export function serverSchemaResolver<TForm extends FieldValues, TOut>(
  schema: z.ZodType<TOut>,
  toInput: (values: TForm) => unknown,
  toField: (path: string) => string | null = (path) => path,
): Resolver<TForm, unknown, TOut> {
  const piped = z.custom<TForm>().transform(toInput).pipe(schema);
  const resolve = zodResolver(piped);
  return async (values, context, options) => {
    const result = await resolve(values, context, { ...options, shouldUseNativeValidation: false });
    if (Object.keys(result.errors).length === 0) return result;
    const onFields: Record<string, FieldError> = {};
    for (const [path, error] of flatten(result.errors))
      onFields[toField(path) ?? FORM_ROOT] ??= error;
    return { values: {}, errors: toNestErrors(onFields, options) };
  };
}
