import { describe, expect, it } from 'vitest';
import { parseCsv } from './flow-schema';
import { DATA_FILE, generateScenario } from './generate-scenario';
import { LIMITS } from './limits';
import type { ScenarioInput } from './scenario-schema';
import { validateScenario } from './validate-scenario';

const params = { requests: 3, concurrency: 1 };
const login = {
  method: 'POST' as const,
  path: '/login',
  body: { kind: 'json' as const, value: { username: '{{username}}', password: '{{password}}' } },
  extract: [{ name: 'token', from: 'json' as const, path: 'token' }],
  checks: [{ kind: 'status' as const, equals: 200 }],
};
const me = { path: '/me', headers: { Authorization: 'Bearer {{token}}' } };
const csv = 'username,password\nalice,pw-alice\nbob,pw-bob\n';
// validateScenario and generateScenario take unknown input, as they get it from a request
const flow = (over: Record<string, unknown> = {}) => ({
  template: 'fixed-requests',
  params,
  flow: true,
  data: { format: 'csv', content: csv },
  requests: [login, me],
  ...over,
});

describe('flows: validation names the field and the reason', () => {
  it('a login flow with CSV data is valid', () => {
    expect(validateScenario(flow())).toEqual([]);
  });

  it('a variable nothing defines, or one only a later step extracts', () => {
    expect(validateScenario(flow({ data: undefined }))).toEqual([
      {
        path: 'requests.0.body.value',
        message: 'uses {{username}}, which no earlier request extracts and no data column provides',
      },
      {
        path: 'requests.0.body.value',
        message: 'uses {{password}}, which no earlier request extracts and no data column provides',
      },
    ]);
    expect(validateScenario(flow({ requests: [me, login] }))).toContainEqual({
      path: 'requests.0.headers.Authorization',
      message: 'uses {{token}}, which is extracted only by this or a later request',
    });
    expect(
      validateScenario(flow({ requests: [login, { path: '/users/{{userid}}' }] })),
    ).toContainEqual({
      path: 'requests.1.path',
      message:
        'uses {{userid}}, which is neither a data column (username, password) nor extracted by an earlier request',
    });
  });

  it('extraction and step think time need a flow; a flow ignores weights', () => {
    expect(validateScenario(flow({ flow: undefined }))).toContainEqual({
      path: 'requests.0.extract',
      message: 'extraction needs a flow (flow: true): in a weighted mix no request comes after it',
    });
    expect(
      validateScenario(flow({ flow: false, requests: [{ path: '/a', thinkTimeMs: 100 }] })),
    ).toContainEqual({
      path: 'requests.0.thinkTimeMs',
      message: "a step's think time needs a flow (flow: true); use the template's thinkTimeMs",
    });
    expect(validateScenario(flow({ requests: [login, { ...me, weight: 3 }] }))).toContainEqual({
      path: 'requests.1.weight',
      message: 'a flow sends every request in order, so weights do not apply: leave it at 1',
    });
  });

  it('bad extractions and checks', () => {
    const problems = validateScenario(
      flow({
        requests: [
          {
            ...login,
            extract: [
              { name: '1token', from: 'json', path: 'token' },
              { name: 'x', from: 'regex', pattern: '(unclosed' },
              { name: 'y', from: 'json', path: 'a b' },
              { name: 'username', from: 'header', header: 'X-User' },
            ],
            checks: [{ kind: 'status', equals: 99 }],
          },
        ],
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          path: 'requests.0.extract.0.name',
          message: 'must be a letter or _ followed by up to 31 letters, digits or _',
        },
        { path: 'requests.0.extract.1.pattern', message: 'is not a valid regular expression' },
        {
          path: 'requests.0.extract.2.path',
          message: 'may contain letters, digits and _ . # @ * ? - [ ] only',
        },
        { path: 'requests.0.checks.0.equals', message: 'Too small: expected number to be >=100' },
      ]),
    );
  });

  it('data: ragged CSV rows, bad column names, JSON rows, limits', () => {
    const data = (content: string, format: 'csv' | 'json' = 'csv') =>
      validateScenario(flow({ data: { format, content } }));
    expect(data('username,password\nalice\n')).toContainEqual({
      path: 'data.content',
      message: 'row 2 has 1 fields; the header row has 2',
    });
    expect(data('user name,password\na,b\n')).toContainEqual({
      path: 'data.content',
      message:
        'column "user name" is not a variable name (a letter or _ followed by up to 31 letters, digits or _)',
    });
    expect(data('username,password\n"alice,pw\n')).toContainEqual({
      path: 'data.content',
      message: 'is not valid CSV: a quoted field is not closed',
    });
    expect(data('username,password\n')).toContainEqual({
      path: 'data.content',
      message: 'has no rows',
    });
    expect(data('[{"username":"a","password":"b"},{"username":"c"}]', 'json')).toContainEqual({
      path: 'data.content',
      message: 'row 1 has other fields than row 0 (username, password)',
    });
    expect(data('[{"username":"a","password":{"x":1}}]', 'json')).toContainEqual({
      path: 'data.content',
      message: 'row 0, field password: values must be strings, numbers or booleans',
    });
    expect(data('[{"username":"a","password":"b"}]', 'json')).toEqual([]);
    const many = `username,password\n${'a,b\n'.repeat(LIMITS.maxDataRows + 1)}`;
    expect(data(many)).toContainEqual({
      path: 'data.content',
      message: `has ${LIMITS.maxDataRows + 1} rows; at most ${LIMITS.maxDataRows}`,
    });
    expect(data('x'.repeat(LIMITS.maxDataBytes + 1))).toContainEqual({
      path: 'data.content',
      message: 'must be at most 512 KiB',
    });
  });

  it('a scenario without flow or data keeps {{...}} literal, as before', () => {
    const plain: ScenarioInput = {
      template: 'fixed-requests',
      params,
      requests: [{ path: '/a', headers: { 'X-Template': '{{not-a-variable}} {{x}}' } }],
    };
    expect(validateScenario(plain)).toEqual([]);
    const cfg = generateScenario(plain).script;
    expect(cfg).toContain('"hasVariables": false');
  });
});

describe('CSV', () => {
  it('reads quotes, doubled quotes, commas and line breaks inside quotes, CRLF and a BOM', () => {
    expect(parseCsv('\ufeffa,b\r\n"x,1","say ""hi"""\r\n"multi\nline",\r\n')).toEqual({
      columns: ['a', 'b'],
      rows: [
        ['x,1', 'say "hi"'],
        ['multi\nline', ''],
      ],
    });
  });
});

describe('generated flows carry data only', () => {
  it('data rows go to a file beside the script, never into it', () => {
    const g = generateScenario(flow());
    expect(Object.keys(g.files)).toEqual([DATA_FILE]);
    expect(JSON.parse(g.files[DATA_FILE]!)).toEqual([
      ['alice', 'pw-alice'],
      ['bob', 'pw-bob'],
    ]);
    expect(g.script).not.toContain('pw-alice');
    expect(g.script).toContain('"columns": [');
    expect(
      generateScenario({ ...flow(), data: undefined, requests: [{ path: '/' }] }).files,
    ).toEqual({});
  });
});
