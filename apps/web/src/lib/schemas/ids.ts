import { z } from 'zod';

/** Ids are cuid-like: letters, digits, `_` and `-`, at most 64 of them. */
const ID_CHAR = '[A-Za-z0-9_-]';
export const ID_MAX_LENGTH = 64;
/** An id as a regex source, to build URL path patterns from (`/runs/${ID_SOURCE}`). */
export const ID_SOURCE = `${ID_CHAR}{1,${ID_MAX_LENGTH}}`;
/** An id's characters as a whole-string pattern (OpenAPI's `pattern`, beside `ID_MAX_LENGTH`). */
export const ID_CHARS_PATTERN = `^${ID_CHAR}+$`;
const ID = new RegExp(`^${ID_SOURCE}$`);

/** Whether a URL's segment can be an id at all: anything else is not found before any query. */
export const isId = (s: string): boolean => ID.test(s);

/** Ids in procedure and REST inputs; anything else is rejected before it reaches a query. */
export const IdSchema = z
  .string()
  .min(1, 'is required')
  .max(ID_MAX_LENGTH)
  .regex(new RegExp(ID_CHARS_PATTERN), 'must be an id');
export const ByIdSchema = z.object({ id: IdSchema });
