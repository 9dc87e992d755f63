import { describe, expect, it } from 'vitest';
import { checkAllowed, resolveHosts } from './allowlist';
import { resolveAndPin } from './resolve-and-pin';

describe('allowlist', () => {
  it('allows addresses by IP, CIDR, or by name when the address is public', () => {
    expect(() =>
      checkAllowed([{ host: '203.0.113.9', addresses: ['203.0.113.9'] }], ['203.0.113.0/24']),
    ).not.toThrow();
    expect(() =>
      checkAllowed([{ host: 'api.example.com', addresses: ['93.184.216.34'] }], ['*.example.com']),
    ).not.toThrow();
    expect(() =>
      checkAllowed([{ host: 'api.example.com', addresses: ['93.184.216.34'] }], ['example.com']),
    ).toThrow(/not allowed/);
  });

  it('refuses a permitted name that resolves into a private range (DNS pointing inward)', () => {
    expect(() =>
      checkAllowed([{ host: 'api.example.com', addresses: ['10.1.2.3'] }], ['api.example.com']),
    ).toThrow(/load to api\.example\.com \(10\.1\.2\.3\) is not allowed.*add 10\.1\.2\.3/);
  });

  it('allows loopback only for managed runs', () => {
    const lo = [{ host: '127.0.0.1', addresses: ['127.0.0.1'] }];
    expect(() => checkAllowed(lo, [])).toThrow(/not allowed/);
    expect(() => checkAllowed(lo, [], { allowLoopback: true })).not.toThrow();
  });

  it('resolves localhost and names every unresolvable host', async () => {
    const r = await resolveHosts(['http://localhost:1234/x', 'http://127.0.0.1:5/']);
    expect(r.find((h) => h.host === 'localhost')!.addresses.length).toBeGreaterThan(0);
    await expect(resolveHosts(['http://no-such-host.invalid/'])).rejects.toThrow(
      /cannot resolve no-such-host\.invalid/,
    );
  });

  it('refuses names resolving to special ranges the old list missed, and IPv4 inside IPv6', () => {
    for (const addr of [
      '::',
      '64:ff9b::7f00:1',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2001::1',
      '100::1',
      '2001:db8::1',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.1',
      '255.255.255.255',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(
        () => checkAllowed([{ host: 'api.example.com', addresses: [addr] }], ['api.example.com']),
        addr,
      ).toThrow(/not allowed/);
    }
    expect(() =>
      checkAllowed([{ host: 'x', addresses: ['::ffff:127.0.0.1'] }], ['127.0.0.1']),
    ).not.toThrow();
  });

  it('never allows link-local or cloud metadata, even when an old allowlist entry covers it', () => {
    expect(() =>
      checkAllowed([{ host: '169.254.169.254', addresses: ['169.254.169.254'] }], ['0.0.0.0/0']),
    ).toThrow(/never allowed.*link-local/);
    expect(() => checkAllowed([{ host: 'm', addresses: ['fd00:ec2::254'] }], ['fd00::/8'])).toThrow(
      /never allowed.*metadata/,
    );
    // a NAT64 address reaches the IPv4 in its last 32 bits through the translator
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a9fe:a9fe'] }], ['64:ff9b::/96']),
    ).toThrow(/never allowed.*link-local/);
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a00:1'] }], ['192.168.0.0/16']),
    ).toThrow(/not allowed for this team \(private address\)/);
    expect(() =>
      checkAllowed([{ host: 'n', addresses: ['64:ff9b::a00:1'] }], ['10.0.0.0/8']),
    ).not.toThrow();
  });

  it('pins each host to one checked address; k6 may reach exactly those (127.0.0.2 and 10.1.2.4 blocked)', async () => {
    const plan = await resolveAndPin({
      loadUrls: [['baseUrls.0', 'http://127.0.0.1:8080']],
      probeUrls: [['metricsUrl', 'http://127.0.0.1:9090/metrics']],
      patterns: ['127.0.0.1'],
    });
    expect(plan.pins).toEqual([
      { host: '127.0.0.1', port: 8080, address: '127.0.0.1' },
      { host: '127.0.0.1', port: 9090, address: '127.0.0.1' },
    ]);
    expect(plan.k6Blacklist).toEqual(
      expect.arrayContaining(['127.0.0.0/32', '127.0.0.2/31', '127.0.0.4/30', '::/0']),
    );
    expect(plan.k6Blacklist).not.toContain('127.0.0.1/32');
    expect(plan.k6Hosts).toEqual({ '127.0.0.1:8080': '127.0.0.1:8080', '*': '0.0.0.0' });
    const ten = await resolveAndPin({
      loadUrls: [['baseUrls.0', 'http://10.1.2.3/']],
      probeUrls: [],
      patterns: ['10.1.2.3'],
    });
    expect(ten.k6Blacklist).toContain('10.1.2.4/30');
    expect(ten.k6Blacklist).toContain('10.1.2.2/32');
  });

  it('refuses credentials in URLs, naming the field, without echoing the password', async () => {
    const err = await resolveAndPin({
      loadUrls: [['baseUrls.0', 'http://127.0.0.1/']],
      probeUrls: [['applyHookUrl', 'http://bob:hunter2@127.0.0.1/apply']],
      patterns: ['127.0.0.1'],
    }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /^applyHookUrl: credentials in URLs are not allowed; use a secret header such as Authorization/,
    );
    expect((err as Error).message).not.toContain('hunter2');
  });
});
