import { BlockList, isIP } from 'node:net';
import {
  addressOpened,
  notOpenedMessage,
  parseIp,
  parseOpened,
  specialLabel,
} from '@poolbench/contracts/net';

/**
 * The first special-purpose IP literal among `hosts` outside every range the installation opened,
 * as a message ("127.0.0.1 is a loopback address outside …"), or null. Host names are judged when
 * the worker resolves them.
 */
export function unopenedHostReason(hosts: string[], opened: readonly string[]): string | null {
  const cidrs = parseOpened(opened);
  for (const h of hosts) {
    const ip = parseIp(h.replace(/^\[|\]$/g, ''));
    if (ip && specialLabel(ip) !== null && !addressOpened(ip, cidrs))
      return notOpenedMessage(h, ip);
  }
  return null;
}

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
