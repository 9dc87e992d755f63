import { describe, expect, it } from 'vitest';
import { main } from './main';

const io = () => {
  let out = '';
  let err = '';
  return {
    io: {
      env: { POOLBENCH_URL: 'http://127.0.0.1:9', POOLBENCH_TOKEN: 'pb_x' },
      stdout: { write: (s: string) => ((out += s), true) },
      stderr: { write: (s: string) => ((err += s), true) },
    },
    out: () => out,
    err: () => err,
  };
};

describe('poolbench cancel', () => {
  it('needs exactly one experiment id (usage, exit 2)', async () => {
    for (const args of [[], ['a', 'b'], ['--nope', 'a']]) {
      const t = io();
      expect(await main(['cancel', ...args], t.io as never)).toBe(2);
      expect(t.err()).toMatch(/^poolbench: /);
    }
  });
  it('needs the address and token like run', async () => {
    const t = io();
    t.io.env = {} as never;
    expect(await main(['cancel', 'abc'], t.io as never)).toBe(2);
    expect(t.err()).toMatch(/set POOLBENCH_URL/);
  });
  it('is listed in the usage', async () => {
    const t = io();
    expect(await main(['--help'], t.io as never)).toBe(0);
    expect(t.out()).toMatch(/poolbench cancel <experiment id>/);
  });
});
