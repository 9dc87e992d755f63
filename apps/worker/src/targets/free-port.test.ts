import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, portWindow } from './free-port';

describe('freePort', () => {
  it('reads the kernel range, and looks below it', () => {
    expect(ephemeralRange('32768\t60999\n')).toEqual({ low: 32768, high: 60999 });
    expect(ephemeralRange('')).toEqual({ low: 32768, high: 60999 });
    expect(portWindow({ low: 32768, high: 60999 })).toEqual({ low: 10_000, high: 32767 });
    // a range that starts low leaves the ports above it
    expect(portWindow({ low: 1024, high: 40000 })).toEqual({ low: 40001, high: 65535 });
  });

  it('gives bindable ports outside the ephemeral range, never the same one twice', async () => {
    const { low, high } = portWindow();
    const ports = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const p = await freePort();
      expect(p).toBeGreaterThanOrEqual(low);
      expect(p).toBeLessThanOrEqual(high);
      ports.add(p);
    }
    expect(ports.size).toBe(50);
    const p = await freePort();
    await new Promise<void>((resolve, reject) => {
      const srv = createServer().once('error', reject);
      srv.listen(p, '127.0.0.1', () => srv.close(() => resolve()));
    });
  });
});
