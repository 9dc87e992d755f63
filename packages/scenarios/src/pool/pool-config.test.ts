import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { poolConfigToArgs } from './pool-config-to-args';
import { validatePoolConfig } from './validate-pool-config';
import { PoolConfigSchema, POOL_STRATEGIES } from './pool-config-schema';
import { POOL_STRATEGY_META, poolStrategyMeta } from './strategy-meta';

describe('poolConfigToArgs', () => {
  it('maps params to kebab-case flags with durations in ms, as the contract example says', () => {
    const args = poolConfigToArgs({
      strategy: 'fixed',
      params: { maxConns: 10, acquireTimeoutMs: 1000 },
    });
    expect(args.slice(0, 3)).toEqual([
      '--strategy=fixed',
      '--max-conns=10',
      '--acquire-timeout=1000ms',
    ]);
  });

  it('passes every defaulted param explicitly', () => {
    expect(
      poolConfigToArgs({
        strategy: 'adaptive',
        params: { minConns: 40, maxConns: 150, initialConns: 40 },
      }),
    ).toEqual([
      '--strategy=adaptive',
      '--max-conns=150',
      '--min-conns=40',
      '--acquire-timeout=1000ms',
      '--connect-timeout=5000ms',
      '--idle-timeout=60000ms',
      '--max-lifetime=600000ms',
      '--health-check-period=60000ms',
      '--statement-timeout=0ms',
      '--initial-conns=40',
      '--grow-step=10',
      '--shrink-step=5',
      '--grow-wait-threshold=100ms',
      '--shrink-idle=300000ms',
      '--check-interval=1000ms',
    ]);
    expect(poolConfigToArgs({ strategy: 'per-request' })).toEqual([
      '--strategy=per-request',
      '--connect-timeout=5000ms',
      '--statement-timeout=0ms',
    ]);
    expect(poolConfigToArgs({ strategy: 'partitioned', params: { shards: 8 } })).toContain(
      '--shards=8',
    );
    expect(
      poolConfigToArgs({
        strategy: 'borrowing',
        params: { secondaryMaxConns: 3, upstreamConns: 7 },
      }),
    ).toEqual(expect.arrayContaining(['--secondary-max-conns=3', '--upstream-conns=7']));
    expect(poolConfigToArgs({ strategy: 'prewarm' })).toContain('--keepalive=30000ms');
  });

  it('does not turn instanceCount into a flag', () => {
    expect(
      poolConfigToArgs({ strategy: 'lazy', instanceCount: 3 }).some((a) => a.includes('instance')),
    ).toBe(false);
  });

  it('throws on an invalid config', () => {
    expect(() =>
      poolConfigToArgs({ strategy: 'elastic', params: { minConns: 9, maxConns: 3 } }),
    ).toThrow(ZodError);
  });
});

describe('PoolConfigSchema', () => {
  it('defaults params and instanceCount', () => {
    expect(PoolConfigSchema.parse({ strategy: 'elastic' })).toEqual({
      strategy: 'elastic',
      instanceCount: 1,
      params: {
        maxConns: 10,
        minConns: 2,
        acquireTimeoutMs: 1000,
        connectTimeoutMs: 5000,
        idleTimeoutMs: 60_000,
        maxLifetimeMs: 600_000,
        healthCheckPeriodMs: 60_000,
        statementTimeoutMs: 0,
      },
    });
  });

  it('lists every problem with its path, and params foreign to the strategy', () => {
    expect(
      validatePoolConfig({
        strategy: 'prewarm',
        params: { minConns: 3, maxConns: 0, keepaliveMs: -5 },
        instanceCount: 17,
      }),
    ).toEqual([
      { path: 'params.maxConns', message: 'must be at least 1' },
      { path: 'params.keepaliveMs', message: 'must be at least 100 ms' },
      { path: 'params.minConns', message: 'is not a param of strategy prewarm' },
      { path: 'instanceCount', message: 'must be at most 16' },
    ]);
    expect(
      validatePoolConfig({
        strategy: 'adaptive',
        params: { minConns: 50, maxConns: 20, initialConns: 70, growStep: 0 },
      }),
    ).toEqual([
      { path: 'params.growStep', message: 'must be at least 1' },
      { path: 'params.minConns', message: 'must not be greater than maxConns' },
      { path: 'params.initialConns', message: 'must be between minConns and maxConns' },
    ]);
    expect(validatePoolConfig({ strategy: 'round-robin' })).toEqual([
      {
        path: 'strategy',
        message: expect.stringMatching(
          /^strategy must be one of per-request, .*borrowing$/,
        ) as unknown as string,
      },
    ]);
    expect(
      validatePoolConfig({
        strategy: 'fixed',
        params: { acquireTimeoutMs: 1.5 },
        instanceCount: 0,
      }),
    ).toEqual([
      { path: 'params.acquireTimeoutMs', message: 'must be a whole number' },
      { path: 'instanceCount', message: 'must be at least 1' },
    ]);
  });
});

describe('strategy metadata', () => {
  it('covers every strategy with a seed citation and the params its schema allows', () => {
    expect(POOL_STRATEGY_META.map((m) => m.strategy)).toEqual([...POOL_STRATEGIES]);
    for (const m of POOL_STRATEGY_META) {
      expect(m.description).toMatch(/[Ss]eed 00\d/);
      const parsed = PoolConfigSchema.parse({ strategy: m.strategy });
      const defaulted = Object.keys(parsed.params);
      expect(
        m.params
          .filter((p) => p.default !== undefined)
          .map((p) => p.key)
          .sort(),
      ).toEqual(defaulted.sort());
      for (const p of m.params) expect(p.flag).toMatch(/^--[a-z-]+$/);
    }
    expect(
      poolStrategyMeta('adaptive').params.find((p) => p.key === 'growWaitThresholdMs'),
    ).toMatchObject({ unit: 'ms', default: 100, flag: '--grow-wait-threshold' });
    // per-request has no pool: maxConns exists only for php-fpm (pm.max_children), with no default
    expect(
      poolStrategyMeta('per-request').params.find((p) => p.key === 'maxConns')?.default,
    ).toBeUndefined();
  });
});
