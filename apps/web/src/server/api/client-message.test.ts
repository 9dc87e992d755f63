import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '@poolbench/db';
import { clientMessage, INTERNAL_MESSAGE } from './trpc';

describe('what a tRPC client reads of an error', () => {
  it('hides an unexpected failure (a database error names columns and queries)', () => {
    const prisma = new Error(
      'Invalid `prisma.experiment.create()` invocation: The column `advisor of relation Experiment` does not exist',
    );
    const e = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      message: prisma.message,
      cause: prisma,
    });
    expect(clientMessage(e)).toBe(INTERNAL_MESSAGE);
    expect(clientMessage(e)).not.toMatch(/prisma|column|Experiment/);
  });
  it('keeps domain, validation and authorization messages', () => {
    const invalid = new InvalidInputError('max', 'must be greater than min');
    expect(
      clientMessage(
        new TRPCError({ code: 'BAD_REQUEST', message: invalid.message, cause: invalid }),
      ),
    ).toBe('max: must be greater than min');
    expect(clientMessage(new TRPCError({ code: 'FORBIDDEN', message: 'Viewers cannot' }))).toBe(
      'Viewers cannot',
    );
  });
});
