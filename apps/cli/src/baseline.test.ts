import { describe, expect, it } from 'vitest';
import { baselineLine } from './baseline';
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

describe('poolbench baseline', () => {
  it.each([
    [[], /give an action: poolbench baseline set\|list\|remove/],
    [['save', 'main'], /unknown action "save"/],
    [['set', '--experiment', 'e1'], /give one baseline name/],
    [['set', 'main'], /--experiment <id> is required/],
    [['remove'], /give one baseline id/],
    [['remove', 'a', 'b'], /give one baseline id/],
    [['list', 'main'], /takes no arguments/],
    [['list', '--experiment', 'e1'], /baseline list does not take --experiment/],
    [['remove', 'b1', '--target', 'Lab'], /baseline remove does not take --target/],
    [['list', '--nope'], /Unknown option '--nope'/],
  ])('%j is a usage error (exit 2) said once, before any request', async (args, message) => {
    const t = io();
    expect(await main(['baseline', ...args], t.io)).toBe(2);
    expect(t.err()).toMatch(message);
    expect(
      t
        .err()
        .split('\n')
        .filter((l) => l.startsWith('poolbench: ')),
    ).toHaveLength(1);
  });

  it('needs the address and token like run', async () => {
    const t = io();
    t.io.env = {};
    expect(await main(['baseline', 'list'], t.io)).toBe(2);
    expect(t.err()).toMatch(/set POOLBENCH_URL/);
  });

  it('is listed in the usage and has its own help', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/poolbench baseline set\|list\|remove/);
    const h = io();
    expect(await main(['baseline', '--help'], h.io)).toBe(0);
    expect(h.out()).toMatch(/poolbench baseline set <name> --experiment <id>/);
    expect(h.out()).toMatch(/poolbench baseline remove <baseline id>/);
  });

  it('a server it cannot reach is exit 3', async () => {
    const t = io();
    expect(await main(['baseline', 'remove', 'b1', '--url', 'http://127.0.0.1:9'], t.io)).toBe(3);
    expect(t.err()).toMatch(/cannot reach PoolBench/);
  }, 60_000);

  it('lists a baseline on one line, id first, with what it points at', () => {
    const b = {
      id: 'b1',
      name: 'main',
      target: { id: 't', name: 'Orders on HikariCP' },
      scenario: { id: 's', name: 'burst' },
      experimentId: 'e1',
      poolConfig: { id: 'p', name: 'hikari 10' },
      runId: null,
      updatedAt: '2026-11-29T07:15:42.000Z',
    };
    expect(baselineLine(b)).toBe(
      'b1  main  Orders on HikariCP · burst · hikari 10  experiment e1, saved 2026-11-29 07:15 UTC',
    );
    expect(baselineLine({ ...b, runId: 'r1', experimentId: null, poolConfig: null })).toBe(
      'b1  main  Orders on HikariCP · burst · (deleted pool config)  run r1, saved 2026-11-29 07:15 UTC',
    );
  });
});
