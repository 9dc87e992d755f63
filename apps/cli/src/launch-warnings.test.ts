import { describe, expect, it } from 'vitest';
import { writeWarnings } from './launch-warnings';

describe('writeWarnings', () => {
  it("writes each of a launch's warnings on its own stderr line, and nothing without one", () => {
    let err = '';
    const io = { stderr: { write: (s: string) => ((err += s), true) } };
    writeWarnings({}, io);
    writeWarnings({ warnings: [] }, io);
    expect(err).toBe('');
    writeWarnings(
      {
        warnings: [
          { code: 'no_worker_online', message: 'no worker is online: the runs wait as queued' },
        ],
      },
      io,
    );
    expect(err).toBe('warning: no worker is online: the runs wait as queued\n');
  });
});
