import { AppError } from '@poolbench/contracts/errors';

/** Domain errors from services; the tRPC and REST mappers translate them with ERROR_CODES. */
export class NotFoundError extends AppError<'not_found'> {
  constructor(what: string) {
    super('not_found', `${what} not found`);
    this.name = 'NotFoundError';
  }
}

/** One field of the request is wrong: the path travels as data (`problems`), never inside the text only. */
export class InvalidInputError extends AppError<'validation_failed'> {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super('validation_failed', `${path}: ${reason}`, { problems: [{ path, message: reason }] });
    this.name = 'InvalidInputError';
  }
}
