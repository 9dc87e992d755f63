import { RUN_STATUSES } from '@poolbench/contracts';
import { describe, expect, it } from 'vitest';
import { RunStatus } from './generated/prisma/enums';

/**
 * The run statuses the code knows are the database's: the schema's enum in the same order (the
 * drift test then holds the database to the schema).
 */
describe('RunStatus', () => {
  it('is the contracts list of run statuses', () => {
    expect(Object.values(RunStatus)).toEqual([...RUN_STATUSES]);
  });
});
