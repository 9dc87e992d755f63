import { BlockList, isIP } from 'node:net';

/** Does a URL's host match one of the team's allowlist patterns (host, *.domain, IP, CIDR)? */
export function hostAllowed(host: string, patterns: string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  const ipVersion = isIP(h);
  for (const p of patterns) {
    if (p.includes('/')) {
      if (!ipVersion) continue;
      const [net, bits] = p.split('/') as [string, string];
      const netV = isIP(net);
      if (netV !== ipVersion) continue;
      const list = new BlockList();
      list.addSubnet(net, Number(bits), netV === 4 ? 'ipv4' : 'ipv6');
      if (list.check(h, ipVersion === 4 ? 'ipv4' : 'ipv6')) return true;
    } else if (p.startsWith('*.')) {
      if (h.endsWith(p.slice(1))) return true;
    } else if (p === h) {
      return true;
    }
  }
  return false;
}
