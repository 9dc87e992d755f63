import { describe, expect, it } from 'vitest';
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

describe('poolbench cancel', () => {
  it('needs exactly one experiment id (usage, exit 2)', async () => {
    for (const args of [[], ['a', 'b'], ['--nope', 'a']]) {
      const t = io();
      expect(await main(['cancel', ...args], t.io)).toBe(2);
      expect(t.err()).toMatch(/^poolbench: /);
    }
  });
  it('needs the address and token like run', async () => {
    const t = io();
    t.io.env = {};
    expect(await main(['cancel', 'abc'], t.io)).toBe(2);
    expect(t.err()).toMatch(/set POOLBENCH_URL/);
  });
  it('is listed in the usage', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    expect(t.out()).toMatch(/poolbench cancel <experiment id>/);
  });
});
