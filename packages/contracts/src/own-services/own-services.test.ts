import { describe, expect, it } from 'vitest';
import { OWN_SERVICES_KEEP_MS, ownServices } from '.';

// Hosts are IP literals, so nothing here asks a resolver.
const env = {
  DATABASE_URL: 'postgresql://u:p@127.0.0.1:54329/poolbench',
  REDIS_URL: 'redis://127.0.0.1:63799',
  BETTER_AUTH_URL: 'http://127.0.0.1:3000',
};

describe("the installation's own services, resolved", () => {
  it('are kept for OWN_SERVICES_KEEP_MS per environment, then resolved again', async () => {
    let t = 1_000_000;
    const now = () => t;
    const first = ownServices(env, now);
    t += OWN_SERVICES_KEEP_MS - 1;
    expect(ownServices(env, now)).toBe(first);
    t += 1;
    const second = ownServices(env, now);
    expect(second).not.toBe(first);
    expect(await second).toEqual(await first);
    // another environment is another resolution, whatever the clock says
    const other = ownServices({ ...env, REDIS_URL: 'redis://127.0.0.1:6379' }, now);
    expect(other).not.toBe(second);
    expect((await other).services.map((s) => `${s.host}:${s.port}`)).toContain('127.0.0.1:6379');
  });
});
