import { describe, expect, it } from 'vitest';
import { PoolConfigSchema, type PoolConfigInput } from './pool-config-schema';
import {
  paramsNotApplied,
  poolConfigProblemsOnTarget,
  runtimeArgs,
  runtimeOffer,
  runtimeProblems,
} from './runtime-capabilities';
import { poolStrategyMeta } from './strategy-meta';
import { POOL_PARAM_DEFS, type PoolParamKey } from './param-defs';
import type { LabEnvironment } from '@poolbench/contracts';

const parse = (c: PoolConfigInput) => PoolConfigSchema.parse(c);

describe('what each runtime can honour (docs/runtimes.md)', () => {
  it('refuses a strategy the runtime does not implement, naming the runtime, the database and what it supports', () => {
    expect(runtimeProblems(parse({ strategy: 'adaptive' }), { runtime: 'bun' })).toEqual([
      {
        path: 'strategy',
        message:
          'adaptive is not supported by the bun runtime on Postgres (supported: per-request, lazy, fixed, prewarm)',
      },
    ]);
    expect(
      runtimeProblems(parse({ strategy: 'priority' }), { runtime: 'go', database: 'mariadb' })[0]
        ?.message,
    ).toMatch(/not supported by the go runtime on MariaDB/);
    expect(
      runtimeProblems(parse({ strategy: 'lazy' }), { runtime: 'php-fpm' })[0]?.message,
    ).toMatch(/php-fpm runtime .*supported: per-request, fixed/);
    expect(
      runtimeProblems(parse({ strategy: 'adaptive', params: { minConns: 4, maxConns: 20 } }), {
        runtime: 'java-hikari',
      }),
    ).toEqual([]);
  });

  it('refuses a param the runtime cannot honour once it differs from the default, and only then', () => {
    // Hikari's housekeeper period is not a pool property
    expect(
      runtimeProblems(parse({ strategy: 'fixed', params: { healthCheckPeriodMs: 5000 } }), {
        runtime: 'java-hikari',
      }),
    ).toEqual([
      {
        path: 'params.healthCheckPeriodMs',
        message:
          'the java-hikari runtime cannot honour health-check period with strategy fixed; leave it at its default (docs/runtimes.md)',
      },
    ]);
    expect(runtimeProblems(parse({ strategy: 'fixed' }), { runtime: 'java-hikari' })).toEqual([]);
    // PHP-FPM has no acquire timeout (a request waits in FPM's queue)
    expect(
      runtimeProblems(parse({ strategy: 'fixed', params: { acquireTimeoutMs: 200 } }), {
        runtime: 'php-fpm',
      })[0]?.path,
    ).toBe('params.acquireTimeoutMs');
    // Bun.sql takes a statement timeout on Postgres only
    expect(
      runtimeProblems(parse({ strategy: 'lazy', params: { statementTimeoutMs: 500 } }), {
        runtime: 'bun',
      }),
    ).toEqual([]);
    expect(
      runtimeProblems(parse({ strategy: 'lazy', params: { statementTimeoutMs: 500 } }), {
        runtime: 'bun',
        database: 'mariadb',
      })[0]?.message,
    ).toMatch(/on MariaDB/);
    // maxConns on per-request is pm.max_children for PHP, meaningless for Go
    expect(
      runtimeProblems(parse({ strategy: 'per-request', params: { maxConns: 8 } }), {
        runtime: 'php-fpm',
      }),
    ).toEqual([]);
    expect(
      runtimeProblems(parse({ strategy: 'per-request', params: { maxConns: 8 } }), {
        runtime: 'go',
      })[0]?.path,
    ).toBe('params.maxConns');
  });

  it("refuses values below the runtime pool's own minimums instead of letting it raise them silently", () => {
    expect(
      runtimeProblems(parse({ strategy: 'elastic', params: { idleTimeoutMs: 2000 } }), {
        runtime: 'java-hikari',
      }),
    ).toEqual([
      {
        path: 'params.idleTimeoutMs',
        message:
          "must be at least 10000 ms on the java-hikari runtime (HikariCP's idleTimeout minimum)",
      },
    ]);
    expect(
      runtimeProblems(
        parse({ strategy: 'prewarm', params: { keepaliveMs: 30_000, maxLifetimeMs: 0 } }),
        { runtime: 'java-hikari' },
      ),
    ).toEqual([]);
    expect(
      runtimeProblems(parse({ strategy: 'fixed', params: { acquireTimeoutMs: 100 } }), {
        runtime: 'java-hikari',
      })[0]?.message,
    ).toMatch(/at least 250 ms.*0 turns it off/);
    // the Go target takes them as they are
    expect(
      runtimeProblems(parse({ strategy: 'elastic', params: { idleTimeoutMs: 2000 } }), {
        runtime: 'go',
      }),
    ).toEqual([]);
  });

  it('refuses environment fields that need a runtime it is not', () => {
    const env: LabEnvironment = { runtime: 'bun', cpuLimit: 1, blobstoreDelayMs: 20 };
    expect(runtimeProblems(parse({ strategy: 'lazy' }), env).map((p) => p.path)).toEqual([
      'environment.cpuLimit',
      'environment.blobstoreDelayMs',
    ]);
    expect(
      runtimeProblems(parse({ strategy: 'lazy' }), {
        runtime: 'go',
        cpuLimit: 1,
        blobstoreDelayMs: 20,
      }),
    ).toEqual([]);
  });

  it('passes a runtime only the flags it honours', () => {
    const cfg = parse({ strategy: 'fixed', params: { maxConns: 7 } });
    expect(runtimeArgs(cfg, { runtime: 'php-fpm' })).toEqual([
      '--strategy=fixed',
      '--max-conns=7',
      '--connect-timeout=5000ms',
      '--statement-timeout=0ms',
    ]);
    expect(runtimeArgs(cfg, { runtime: 'go' })).toContain('--health-check-period=60000ms');
    expect(runtimeArgs(cfg, { runtime: 'java-hikari' })).not.toContain(
      '--health-check-period=60000ms',
    );
  });

  it('checks a stored config against its target: the pool config overrides the target runtime', () => {
    expect(
      poolConfigProblemsOnTarget({ strategy: 'adaptive', params: {} }, { runtime: 'bun' })[0]?.path,
    ).toBe('strategy');
    expect(
      poolConfigProblemsOnTarget(
        { strategy: 'adaptive', params: {}, environment: { runtime: 'java-hikari' } },
        { runtime: 'bun' },
      ),
    ).toEqual([]);
    expect(poolConfigProblemsOnTarget({ strategy: 'nope' }, {})[0]?.path).toBe('strategy');
    expect(poolConfigProblemsOnTarget({ strategy: 'fixed' }, { runtime: 'cobol' })).toEqual([
      {
        path: 'target.environment',
        message: "the target's environment is invalid; edit the target",
      },
    ]);
  });
});

describe('runtimeOffer: what a form offers is what the server accepts', () => {
  it('Java/HikariCP on MariaDB offers no lazy; PHP-FPM only its two strategies and the params it applies', () => {
    const java = runtimeOffer({ runtime: 'java-hikari', database: 'mariadb' });
    expect(java.strategies).not.toContain('lazy');
    expect(java.strategies).toContain('fixed');
    const php = runtimeOffer({ runtime: 'php-fpm', database: 'mariadb' });
    expect(php.strategies).toEqual(['per-request', 'fixed']);
    expect(php.honours('fixed', 'maxConns')).toBe(true);
    expect(php.honours('fixed', 'acquireTimeoutMs')).toBe(false);
    expect(php.honours('fixed', 'maxLifetimeMs')).toBe(false);
    expect(runtimeOffer(null).strategies).toHaveLength(10);
  });

  it('what a form hides is exactly what the server refuses: strategies not offered, params not honoured', () => {
    const all = runtimeOffer(null).strategies;
    for (const runtime of ['go', 'java-hikari', 'bun', 'php-fpm'] as const)
      for (const database of ['postgres', 'mariadb'] as const) {
        const env = { runtime, database };
        const offer = runtimeOffer(env);
        for (const strategy of all) {
          const where = `${runtime}/${database}/${strategy}`;
          if (!offer.strategies.includes(strategy)) {
            expect(
              runtimeProblems(parse({ strategy }), env).map((p) => p.path),
              where,
            ).toEqual(['strategy']);
            continue;
          }
          for (const p of poolStrategyMeta(strategy).params) {
            if (p.default === undefined || typeof p.default !== 'number') continue;
            const config = PoolConfigSchema.safeParse({
              strategy,
              params: { [p.key]: p.default + 1 },
            });
            if (!config.success) continue; // a value this strategy's own schema refuses
            const refused = runtimeProblems(config.data, env).some(
              (x) => x.path === `params.${p.key}` && /cannot honour/.test(x.message),
            );
            expect(refused, `${where} ${p.key}`).toBe(
              !offer.honours(strategy, p.key as PoolParamKey),
            );
          }
        }
      }
  });
});

describe('paramsNotApplied: what a run page marks as not applied', () => {
  it('PHP-FPM applies pool size and timeouts of the connection, not the lifetimes of a pool it has not', () => {
    const cfg = parse({ strategy: 'fixed', params: { maxConns: 7 } });
    const shown = paramsNotApplied(cfg.strategy, Object.keys(cfg.params), { runtime: 'php-fpm' });
    expect(shown.label).toBe('PHP-FPM + nginx (PDO)');
    expect(shown.keys).toContain('acquireTimeoutMs');
    expect(shown.keys).not.toContain('maxConns');
    expect(shown.keys).not.toContain('connectTimeoutMs');
    // Go applies every param of the strategy
    expect(paramsNotApplied(cfg.strategy, Object.keys(cfg.params), {}).keys).toEqual([]);
    // an older snapshot's unknown strategy claims nothing
    expect(paramsNotApplied('gone', ['maxConns'], { runtime: 'php-fpm' }).keys).toEqual([]);
  });

  it('a param is marked not applied exactly when the runtime is not passed its flag', () => {
    const envs: LabEnvironment[] = [
      {},
      { database: 'mariadb' },
      { runtime: 'java-hikari', database: 'mariadb' },
      { runtime: 'bun' },
      { runtime: 'bun', database: 'mariadb' },
      { runtime: 'php-fpm' },
    ];
    for (const env of envs)
      for (const strategy of runtimeOffer(env).strategies) {
        const cfg = parse({ strategy });
        const args = runtimeArgs(cfg, env);
        const notApplied = new Set(paramsNotApplied(strategy, Object.keys(cfg.params), env).keys);
        for (const [key, def] of Object.entries(POOL_PARAM_DEFS)) {
          if (!(key in cfg.params)) continue;
          const passed = args.some((a) => a.startsWith(`--${def.flag}=`));
          expect(passed, `${JSON.stringify(env)} ${strategy} ${key}`).toBe(!notApplied.has(key));
        }
      }
  });
});
