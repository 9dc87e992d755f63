import { describe, expect, it } from 'vitest';
import { PoolConfigSaveSchema } from '~/lib/schemas/pool-config';
import { poolConfigField, toPoolConfigSave } from './pool-config-form';

describe('the pool config form sends what poolConfig.create parses', () => {
  it("only the params the user set, the rest defaulted by the server's schema", () => {
    const body = toPoolConfigSave({
      name: 'lazy 5',
      strategy: 'lazy',
      params: { maxConns: 5, minConns: undefined },
      instanceCount: 1,
    });
    expect(body.config.params).toEqual({ maxConns: 5 });
    expect(PoolConfigSaveSchema.safeParse(body).success).toBe(true);
  });

  it("a problem under config. lands on the form's own field", () => {
    const r = PoolConfigSaveSchema.safeParse(
      toPoolConfigSave({ name: '', strategy: 'lazy', params: { maxConns: 0 }, instanceCount: 40 }),
    );
    const paths = (r.error?.issues ?? []).map((i) => poolConfigField(i.path.join('.')));
    expect(paths).toEqual(expect.arrayContaining(['name', 'params.maxConns', 'instanceCount']));
  });
});
