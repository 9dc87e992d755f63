import { describe, expect, it } from 'vitest';
import { TargetInputSchema } from './target';

describe('TargetInputSchema', () => {
  it('text that is not a URL is a problem of its field, not a crash of the parse (new URL threw "Invalid URL")', () => {
    const r = TargetInputSchema.safeParse({
      kind: 'url',
      name: 'x',
      baseUrls: ['not a url'],
      requestDefaults: {},
      metricsUrl: 'nope',
      readinessPath: 'ready',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['baseUrls.0', 'must be a URL like https://api.example.com'],
      // an optional field says why too (a union with '' said only "Invalid input")
      ['metricsUrl', 'must be a URL like https://api.example.com'],
      ['readinessPath', 'must start with / (no query string)'],
    ]);
  });

  it('an empty optional URL or path means none', () => {
    const r = TargetInputSchema.parse({
      kind: 'url',
      name: 'x',
      baseUrls: ['http://127.0.0.1:1'],
      requestDefaults: {},
      metricsUrl: '',
      applyHookUrl: ' ',
      readinessPath: '',
    });
    expect(r).toMatchObject({
      metricsUrl: undefined,
      applyHookUrl: undefined,
      readinessPath: undefined,
    });
  });
});
