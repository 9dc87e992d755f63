import { describe, expect, it } from 'vitest';
import { blacklistFor, checkAllowed, resolveHosts } from './allowlist';

describe('allowlist', () => {
  it('allows addresses by IP, CIDR, or by name when the address is public', () => {
    expect(() => checkAllowed([{ host: '203.0.113.9', addresses: ['203.0.113.9'] }], ['203.0.113.0/24'])).not.toThrow();
    expect(() => checkAllowed([{ host: 'api.example.com', addresses: ['93.184.216.34'] }], ['*.example.com'])).not.toThrow();
    expect(() => checkAllowed([{ host: 'api.example.com', addresses: ['93.184.216.34'] }], ['example.com'])).toThrow(/not allowed/);
  });

  it('refuses a permitted name that resolves into a private range (DNS pointing inward)', () => {
    expect(() => checkAllowed([{ host: 'api.example.com', addresses: ['10.1.2.3'] }], ['api.example.com'])).toThrow(
      /load to api\.example\.com \(10\.1\.2\.3\) is not allowed.*add 10\.1\.2\.3/,
    );
  });

  it('allows loopback only for managed runs', () => {
    const lo = [{ host: '127.0.0.1', addresses: ['127.0.0.1'] }];
    expect(() => checkAllowed(lo, [])).toThrow(/not allowed/);
    expect(() => checkAllowed(lo, [], { allowLoopback: true })).not.toThrow();
  });

  it('resolves localhost and names every unresolvable host', async () => {
    const r = await resolveHosts(['http://localhost:1234/x', 'http://127.0.0.1:5/']);
    expect(r.find((h) => h.host === 'localhost')!.addresses.length).toBeGreaterThan(0);
    await expect(resolveHosts(['http://no-such-host.invalid/'])).rejects.toThrow(/cannot resolve no-such-host\.invalid/);
  });

  it('blocks every special range except the ones the run targets', () => {
    const bl = blacklistFor(['127.0.0.1']);
    expect(bl).not.toContain('127.0.0.0/8');
    expect(bl).toContain('10.0.0.0/8');
    expect(bl).toContain('169.254.0.0/16');
    expect(blacklistFor(['10.0.0.5'])).not.toContain('10.0.0.0/8');
  });
});
