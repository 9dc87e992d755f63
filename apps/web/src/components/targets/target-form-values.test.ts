import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { targetField, targetResolver, type TargetFormValues } from './target-form-values';

const options: ResolverOptions<TargetFormValues> = {
  fields: {},
  names: [],
  shouldUseNativeValidation: false,
};
const url = (patch: Partial<TargetFormValues> = {}): TargetFormValues => ({
  kind: 'url',
  name: 'Orders',
  requestDefaults: {
    method: 'GET',
    path: '/health',
    query: [
      { key: 'ms', value: '5' },
      { key: '', value: 'ignored' },
    ],
  },
  setup: {},
  environment: {},
  baseUrls: 'http://127.0.0.1:8080\n http://127.0.0.1:8081 ',
  headers: [{ name: 'X-Team', value: 'a', secret: false }],
  metricsUrl: '',
  applyHookUrl: '',
  readinessPath: '',
  monitorDsn: '',
  replaceSecrets: true,
  ...patch,
});

describe("the target form checks with the server's TargetInputSchema", () => {
  it('valid values resolve to the body target.create parses', async () => {
    const r = await targetResolver(url(), undefined, options);
    expect(r.errors).toEqual({});
    expect(r.values).toMatchObject({
      kind: 'url',
      baseUrls: ['http://127.0.0.1:8080', 'http://127.0.0.1:8081'],
      requestDefaults: { query: { ms: '5' } },
      metricsUrl: undefined,
    });
  });

  it('puts each problem on its field: a bad second base URL on Base URLs, a bad header on that header', async () => {
    const r = await targetResolver(
      url({
        name: '',
        baseUrls: 'http://127.0.0.1:8080\nftp://x',
        headers: [{ name: 'bad header', value: 'a', secret: false }],
        metricsUrl: 'nope',
      }),
      undefined,
      options,
    );
    const e = r.errors as Record<string, unknown>;
    expect(e.name).toMatchObject({ message: 'is required' });
    expect(e.baseUrls).toMatchObject({ message: 'must use http or https' });
    expect(e.headers).toMatchObject([{ name: { message: 'must be a valid header name' } }]);
    expect(e.metricsUrl).toMatchObject({ message: 'must be a URL like https://api.example.com' });
  });

  it('a managed target with a cleared data-set field reports that field', async () => {
    const r = await targetResolver(
      url({ kind: 'managed', setup: { rows: undefined }, environment: { dbLinkRttMs: -1 } }),
      undefined,
      options,
    );
    const e = r.errors as Record<string, unknown>;
    expect(e.setup).toMatchObject({ rows: { message: expect.any(String) } });
    expect(e.environment).toMatchObject({ dbLinkRttMs: { message: expect.any(String) } });
  });

  it("maps the server's paths (target.update wraps the body in `target`) to form fields", () => {
    expect(targetField('target.baseUrls.1')).toBe('baseUrls');
    expect(targetField('headers.0.value')).toBe('headers.0.value');
    expect(targetField('target.requestDefaults.query.ms')).toBe('requestDefaults.query');
    expect(targetField('target.environment.cpuLimit')).toBe('environment.cpuLimit');
    expect(targetField('kind')).toBeNull();
  });
});
