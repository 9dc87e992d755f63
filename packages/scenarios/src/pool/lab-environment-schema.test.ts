import { describe, expect, it } from 'vitest';
import { PoolConfigSchema } from './pool-config-schema';
import {
  describeLabEnvironment,
  LabEnvironmentSchema,
  resolveLabEnvironment,
} from '@poolbench/contracts';

const issues = (r: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) => (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('LabEnvironmentSchema', () => {
  it('names the field and the reason', () => {
    expect(
      issues(
        LabEnvironmentSchema.safeParse({
          dbLinkRttMs: -1,
          cpuLimit: 0,
          balancing: 'haproxy',
          roleConnectionLimit: 1.5,
        }),
      ),
    ).toEqual([
      'dbLinkRttMs: must be at least 0 ms',
      'roleConnectionLimit: must be a whole number',
      'cpuLimit: must be at least 1',
      'balancing: must be one of k6-round-robin, nginx',
    ]);
    expect(issues(LabEnvironmentSchema.safeParse({ rtt: 5 }))[0]).toMatch(/rtt/);
  });

  it('a pool config carries overrides; the run uses the target defaults with them on top', () => {
    const pc = PoolConfigSchema.parse({ strategy: 'lazy', environment: { dbLinkRttMs: 50 } });
    expect(pc.environment).toEqual({ dbLinkRttMs: 50 });
    expect(
      issues(PoolConfigSchema.safeParse({ strategy: 'lazy', environment: { cpuLimit: 99 } })),
    ).toEqual(['environment.cpuLimit: must be at most 64']);
    expect(
      resolveLabEnvironment(
        { dbLinkRttMs: 20, cpuLimit: 1 },
        { dbLinkRttMs: 50, balancing: undefined },
      ),
    ).toEqual({ dbLinkRttMs: 50, cpuLimit: 1 });
    expect(describeLabEnvironment({ dbLinkRttMs: 50, cpuLimit: 1, balancing: 'nginx' })).toBe(
      'database link RTT 50 ms, GOMAXPROCS 1, nginx in front',
    );
  });
});
