import type { Db } from '@poolbench/db';
import { PolicyError } from '../errors';
import { hostAllowed } from '../teams/host-allowed';

/** Every URL a URL target reaches must be on the team allowlist; the error names the hosts. */
export async function checkTargetHosts(db: Db, teamId: string, urls: string[]): Promise<void> {
  const patterns = (
    await db.allowedHost.findMany({ where: { teamId }, select: { pattern: true } })
  ).map((r) => r.pattern);
  const denied = [...new Set(urls.map((u) => new URL(u).hostname))].filter(
    (h) => !hostAllowed(h, patterns),
  );
  if (denied.length > 0) {
    throw new PolicyError(
      `${denied.join(', ')} ${denied.length === 1 ? 'is' : 'are'} not on the team allowlist. An admin can add ${denied.length === 1 ? 'it' : 'them'} under Settings → Allowlist.`,
    );
  }
}
