import { describe, expect, it } from 'vitest';
import { parseIp } from './ip-math';
import { addressOpened, openRangeRefusal, parseOpened, unopenedAllowReason } from './opened-ranges';

describe('two levels of trust: ranges the installation opened', () => {
  it('refuses every special-purpose entry while the installation opened nothing', () => {
    for (const p of ['127.0.0.1', '127.0.0.0/8', '10.1.2.3', '192.168.0.0/16', '::1', 'fd00::/8'])
      expect(unopenedAllowReason(p, []), p).toMatch(/an installation admin must open it first/);
    expect(unopenedAllowReason('127.0.0.1', [])).toBe(
      '127.0.0.1 (loopback) is outside every range this installation opened to teams; an installation admin must open it first (Settings → Installation)',
    );
  });

  it('needs no opening for public addresses and host names', () => {
    for (const p of [
      '8.8.8.8',
      '93.184.216.0/24',
      '2606:4700::/32',
      'api.example.com',
      '*.example.com',
    ])
      expect(unopenedAllowReason(p, []), p).toBeNull();
  });

  it('allows inside an opened range and nothing beyond it', () => {
    const opened = ['127.0.0.0/8', '10.1.0.0/16'];
    for (const p of ['127.0.0.1', '127.0.0.0/24', '127.0.0.0/8', '10.1.2.0/24', '::ffff:127.0.0.1'])
      expect(unopenedAllowReason(p, opened), p).toBeNull();
    expect(unopenedAllowReason('10.0.0.0/8', opened)).toMatch(
      /^10\.0\.0\.0\/8 holds 10\.0\.0\.0\/16 \(private\)/,
    );
    expect(unopenedAllowReason('::1', opened)).toMatch(/^::1 \(loopback\)/);
    // a broad range: its public parts need nothing, its special parts each need an opening
    expect(unopenedAllowReason('0.0.0.0/1', ['0.0.0.0/8', '10.0.0.0/8', '127.0.0.0/8'])).toMatch(
      /^0\.0\.0\.0\/1 holds 100\.64\.0\.0\/10 \(shared address space \(CGN\)\)/,
    );
  });

  it('judges IPv4-in-IPv6 forms by the IPv4 they carry, at save and per address', () => {
    const opened = parseOpened(['127.0.0.0/8']);
    for (const a of ['127.0.0.1', '::ffff:127.0.0.1', '64:ff9b::7f00:1'])
      expect(addressOpened(parseIp(a)!, opened), a).toBe(true);
    for (const a of ['127.0.0.1', '::1', '10.0.0.1'])
      expect(addressOpened(parseIp(a)!, parseOpened([])), a).toBe(false);
    expect(unopenedAllowReason('::ffff:10.0.0.1', ['127.0.0.0/8'])).toMatch(/private/);
  });

  it('an installation admin opens special-purpose ranges, never link-local or metadata', () => {
    expect(openRangeRefusal('127.0.0.0/8')).toBeNull();
    expect(openRangeRefusal('fd12:3456::/32')).toBeNull();
    expect(openRangeRefusal('169.254.0.0/16')).toMatch(/can never be opened/);
    expect(openRangeRefusal('100.100.100.0/24')).toMatch(/metadata.*can never be opened/);
    expect(openRangeRefusal('8.8.8.0/24')).toMatch(/only public addresses/);
    expect(openRangeRefusal('0.0.0.0/1')).toMatch(/can never be opened|wider than \/8/);
    expect(openRangeRefusal('example.com')).toMatch(/CIDR/);
  });
});
