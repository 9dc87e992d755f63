import { endpointsOf } from '@poolbench/contracts/net';
import { ownServiceRefusal, resolveForCheck } from '@poolbench/contracts/own-services';
import { InvalidInputError } from '../errors';

/**
 * No team, installation admins included, may point anything at the installation's own services
 * (Postgres, Redis, the lab databases, SMTP and the mail catcher, the web app, the worker's ops
 * port): judged by every address the host resolves to now and the port. The worker judges the
 * pinned addresses again at run time, so a DNS change after saving reaches nothing either.
 */
export async function refuseOwnService(field: string, host: string, port: number): Promise<void> {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const addresses = await resolveForCheck(bare);
  const refusal = await ownServiceRefusal(
    bare,
    port,
    bare === 'localhost' ? [...addresses, '127.0.0.1', '::1'] : addresses,
  );
  if (refusal) throw new InvalidInputError(field, refusal);
}

/** `refuseOwnService` for an http(s) URL, at the port it connects to. */
export async function refuseOwnServiceUrl(field: string, url: string): Promise<void> {
  const [{ host, port }] = endpointsOf([url]) as [{ host: string; port: number }];
  await refuseOwnService(field, host, port);
}
