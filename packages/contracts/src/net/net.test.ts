import { describe, expect, it } from 'vitest';
import { canonicalIp, complementCidrs, formatCidr, formatIp, parseCidr, parseIp } from './ip-math';
import { specialLabel, touchesLinkLocalOrMetadata } from './special-ranges';
import { hasUrlCredentials, redactUrl, redactUrlsIn } from './redact-url';

describe('special-purpose ranges', () => {
  const cases: Array<[string, string]> = [
    ['0.1.2.3', 'this network'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'shared address space (CGN)'],
    ['127.0.0.2', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.168.1.1', 'private'],
    ['198.19.0.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['2002:7f00:1::', '6to4'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['fd00::1', 'unique local'],
    ['fc00::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['fd00:ec2::254', 'unique local'],
    // IPv4 inside IPv6 is judged by the IPv4 address the connection reaches.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    // NAT64 forms by the IPv4 address the translator reaches
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b:1::a00:1', 'private'],
  ];
  it.each(cases)('%s is %s', (addr, label) => {
    expect(specialLabel(addr)).toBe(label);
  });
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    '%s is public',
    (addr) => {
      expect(specialLabel(addr)).toBeNull();
    },
  );
  it('refuses link-local and metadata in allowlist ranges', () => {
    expect(touchesLinkLocalOrMetadata(parseCidr('169.254.0.0/16')!)).toMatch(/link-local/);
    expect(touchesLinkLocalOrMetadata(parseCidr('169.254.169.254')!)).toMatch(/link-local/);
    expect(touchesLinkLocalOrMetadata(parseCidr('0.0.0.0/0')!)).toMatch(/link-local/);
    expect(touchesLinkLocalOrMetadata(parseCidr('fd00:ec2::254')!)).toMatch(/metadata/);
    expect(touchesLinkLocalOrMetadata(parseCidr('127.0.0.0/8')!)).toBeNull();
  });
  it.each([
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe/128',
    '::ffff:0:0/96',
    '::ffff:a9fe:0/112',
    '::a9fe:a9fe',
    '64:ff9b::/96',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::/48',
    '64:ff9b:1:2::/64',
    '::/0',
    '::/64',
  ])('refuses %s: it reaches link-local IPv4 through an IPv4-in-IPv6 form', (range) => {
    expect(touchesLinkLocalOrMetadata(parseCidr(range)!)).toMatch(/\(as IPv4 inside IPv6\)$/);
  });
  it.each(['::ffff:7f00:0/104', '64:ff9b::a00:0/104', '2001:db8::/32', '::1'])(
    'allows %s (no link-local IPv4 inside)',
    (range) => {
      expect(touchesLinkLocalOrMetadata(parseCidr(range)!)).toBeNull();
    },
  );
});

describe('ip math', () => {
  it('parses and formats', () => {
    expect(formatIp(parseIp('2001:0db8:0:0:0:0:0:1')!)).toBe('2001:db8::1');
    expect(formatIp(parseIp('[::1]')!)).toBe('::1');
    expect(formatIp(canonicalIp('::ffff:10.0.0.1')!)).toBe('10.0.0.1');
    expect(formatCidr(parseCidr('10.1.2.3/8')!)).toBe('10.0.0.0/8');
    expect(parseCidr('10.0.0.0/33')).toBeNull();
  });
  it('blocks everything but the kept address (127.0.0.1)', () => {
    const c = complementCidrs([parseIp('127.0.0.1')!], 4).map(formatCidr);
    expect(c).toHaveLength(32);
    expect(c).toEqual(
      expect.arrayContaining([
        '127.0.0.0/32',
        '127.0.0.2/31',
        '127.0.0.4/30',
        '127.128.0.0/9',
        '128.0.0.0/1',
        '0.0.0.0/2',
      ]),
    );
  });
  it('blocks the neighbour of 10.1.2.3 and covers every other address exactly once', () => {
    const c = complementCidrs([parseIp('10.1.2.3')!, parseIp('10.1.2.5')!], 4);
    const size = c.reduce((s, x) => s + (1n << BigInt(32 - x.len)), 0n);
    expect(size).toBe((1n << 32n) - 2n);
    expect(c.map(formatCidr)).toEqual(expect.arrayContaining(['10.1.2.4/32', '10.1.2.2/32']));
  });
  it('IPv6 likewise; no kept address blocks the whole family', () => {
    const c = complementCidrs([parseIp('::1')!], 6).map(formatCidr);
    expect(c).toHaveLength(128);
    expect(c).toContain('::/128');
    expect(c).toContain('::2/127');
    expect(complementCidrs([], 6).map(formatCidr)).toEqual(['::/0']);
  });
});

describe('URL redaction', () => {
  it('strips credentials and query strings', () => {
    expect(redactUrl('http://user:pass@host:8080/a?token=x')).toBe('http://host:8080/a?…');
    expect(
      redactUrlsIn('apply hook http://u:p@127.0.0.1:9/h?k=1 did not answer; see https://a.b/'),
    ).toBe('apply hook http://127.0.0.1:9/h?… did not answer; see https://a.b/');
    expect(redactUrlsIn('postgres://me:secret@db:5432/x failed')).toBe(
      'postgres://db:5432/x failed',
    );
    expect(hasUrlCredentials('http://user@host/')).toBe(true);
    expect(hasUrlCredentials('http://host/')).toBe(false);
  });
});

describe('isIP (browser-safe)', () => {
  it('agrees with node:net on valid and invalid literals', async () => {
    const { isIP: nodeIsIP } = await import('node:net');
    const { isIP } = await import('./ip-math');
    for (const s of [
      '1.2.3.4',
      '255.255.255.255',
      '256.1.1.1',
      '01.2.3.4',
      '::',
      '::1',
      '1::',
      'fe80::1',
      '::ffff:1.2.3.4',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'g::1',
      '1:2:3:4:5:6:1.2.3.4',
      'abc',
      '',
      '2001:db8::',
      ':1',
      '1:',
    ]) {
      expect(isIP(s), s).toBe(nodeIsIP(s));
    }
  });
});

describe('allowlist entries described', () => {
  it('says how many addresses and which kind', async () => {
    const { describeAllowPattern, forbiddenAllowReason } = await import('./describe-range');
    expect(describeAllowPattern('127.0.0.0/24')).toMatchObject({
      addresses: '256 addresses',
      label: 'loopback',
      broad: false,
    });
    expect(describeAllowPattern('10.0.0.0/8')).toMatchObject({
      addresses: '16,777,216 addresses',
      label: 'private',
      broad: false,
    });
    expect(describeAllowPattern('0.0.0.0/0')).toMatchObject({
      addresses: '2^32 addresses',
      label: 'every address',
      broad: true,
    });
    expect(describeAllowPattern('fd00::/16')).toMatchObject({ label: 'unique local', broad: true });
    expect(describeAllowPattern('203.0.113.9')).toMatchObject({
      addresses: '1 address',
      label: 'documentation',
    });
    expect(describeAllowPattern('*.example.com')).toMatchObject({ label: 'public addresses only' });
    expect(forbiddenAllowReason('169.254.169.254')).toMatch(/link-local/);
    expect(forbiddenAllowReason('fd00:ec2::254')).toMatch(/metadata/);
    expect(forbiddenAllowReason('10.0.0.0/8')).toBeNull();
  });
});
