/** Domain errors from services; routers translate them (TRPCError / problem+json), never the reverse. */
export class NotFoundError extends Error {
  readonly code = 'not_found';
  constructor(what: string) {
    super(`${what} not found`);
    this.name = 'NotFoundError';
  }
}

export class InvalidInputError extends Error {
  readonly code = 'invalid_input';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'InvalidInputError';
  }
}
