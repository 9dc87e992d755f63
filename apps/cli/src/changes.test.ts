import { describe, expect, it } from 'vitest';
import type { ChangePointsAnswer } from '@poolbench/contracts';
import { changesText } from './changes';
import { main, type Io } from './main';

const io = () => {
  let out = '';
  let err = '';
  const env: NodeJS.ProcessEnv = { POOLBENCH_URL: 'http://127.0.0.1:9', POOLBENCH_TOKEN: 'pb_x' };
  const io: Io = {
    env,
    stdout: { write: (s: string) => ((out += s), true) },
    stderr: { write: (s: string) => ((err += s), true) },
  };
  return { io, out: () => out, err: () => err };
};

describe('poolbench changes', () => {
  it('needs the target, scenario and pool config (usage, exit 2), named in the message', async () => {
    const t = io();
    expect(await main(['changes', '--target', 'Lab'], t.io)).toBe(2);
    expect(t.err()).toMatch(/--scenario, --pool-config are required/);
  });

  it('is listed in the usage and has its own help', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/poolbench changes \[options\]/);
    const h = io();
    expect(await main(['changes', '--help'], h.io)).toBe(0);
    expect(h.out()).toMatch(/--since <sha\|date>/);
  });

  it('says each change point with its size, interval, firings and commits', () => {
    const firing = (name: string, commit: string) => ({
      experimentId: name,
      name,
      createdAt: '2026-11-01T00:00:00.000Z',
      commit,
      branch: 'main',
    });
    const a: ChangePointsAnswer = {
      target: { id: 't', name: 'Lab' },
      scenario: { id: 's', name: 'steady' },
      poolConfig: { id: 'p', name: 'max 8' },
      firings: 20,
      changePoints: [
        {
          metric: 'p95Ms',
          kind: 'regression',
          before: firing('nightly 10', '0123456789abcdef'),
          after: firing('nightly 11', 'fedcba9876543210'),
          firingsBefore: 10,
          firingsAfter: 10,
          meanBefore: 20,
          meanAfter: 30,
          change: 0.5,
          interval: { estimate: 0.49, lower: 0.41, upper: 0.58 },
          pValue: 1.2e-9,
        },
      ],
      since: { commit: '0123456789abcdef', at: '2026-11-01T00:00:00.000Z', regressions: 1 },
    };
    expect(changesText(a)).toBe(
      [
        'Lab · steady · max 8: 20 firings, 1 change point',
        '  REGRESSION  p95Ms: +50.0 % (95 % interval +41.0 % … +58.0 %), p = 1.2e-9',
        '    between nightly 10 (0123456789ab on main) and nightly 11 (fedcba987654 on main); 10 firings before, 10 after',
        '1 regression change point since 0123456789abcdef',
        '',
      ].join('\n'),
    );
  });
});
