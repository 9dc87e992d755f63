import { describe, expect, it } from 'vitest';
import { malformedPathAnswer } from '../../malformed-path.mjs';
import { matchOperation } from './rest/operations';

describe('a path with a malformed percent-escape', () => {
  it('is 400 on every route before anything decodes it: problem+json under /api/', () => {
    for (const url of [
      '/api/v1/experiments/%E0%A4%A',
      '/api/runs/%/data',
      '/api/runs/abc%zz/data?x=1',
      '/api/trpc/run.get%C3',
    ]) {
      const a = malformedPathAnswer(url);
      expect(a?.status, url).toBe(400);
      expect(a?.headers['Content-Type'], url).toBe('application/problem+json');
      expect(JSON.parse(a!.body)).toMatchObject({ status: 400, code: 'malformed_path' });
    }
    for (const url of ['/share/%zz', '/runs/%E0%A4%A', '/%']) {
      const a = malformedPathAnswer(url);
      expect(a?.status, url).toBe(400);
      expect(a?.headers['Content-Type'], url).toMatch(/^text\/plain/);
    }
  });

  it('well-formed escapes and a % in the query string pass through', () => {
    for (const url of ['/share/abc', '/api/runs/a%2Fb/data', '/runs/%E0%A4%A4', '/runs?q=%zz', '/'])
      expect(malformedPathAnswer(url), url).toBeNull();
  });

  it('the REST router matches nothing rather than throwing', () => {
    expect(() => matchOperation('GET', '/experiments/%E0%A4%A')).not.toThrow();
    expect(matchOperation('GET', '/experiments/%E0%A4%A')).toBeNull();
  });
});
