import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { RestDeps } from '~/server/rest/deps';
import { handleRest } from '~/server/rest/handle-rest';
import { buildOpenApi } from '~/server/rest/openapi';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApi('http://pb.test');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components } as Json);

// each documented path as a pattern over a request's path, its {params} one segment each; the
// fewest params first, so a concrete path is matched before a template that also matches it (as
// OpenAPI says a client matches them)
const routes = Object.entries(doc.paths as Json)
  .map(([template, methods]) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    params: template.split('{').length - 1,
    methods: methods as Json,
  }))
  .sort((a, b) => a.params - b.params);

/** Fails unless `body` (as JSON) is valid against `#/components/schemas/<name>` of the document. */
export function expectValidAs(name: string, body: unknown) {
  const validate = ajv.getSchema(`doc#/components/schemas/${name}`)!;
  expect(validate, `no schema ${name} in the document`).toBeDefined();
  expect(validate(body), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

/**
 * Fails unless `res` is what the OpenAPI document says `method path` answers: its status is one
 * the operation documents, with that status's media type and a body valid against its schema.
 * Reads a clone, so the caller can still read the body.
 */
export async function expectDocumented(method: string, path: string, res: Response) {
  const bare = path.split('?')[0]!;
  const route = routes.find((r) => r.pattern.test(bare));
  expect(route, `${method} ${bare} is not a documented path`).toBeDefined();
  // the router's own answers, the same on every path: a method the path does not have (405) and
  // OPTIONS, each with the path's methods in Allow
  const allow = [...Object.keys(route!.methods).map((m) => m.toUpperCase()), 'OPTIONS'];
  if (res.status === 405 || (method === 'OPTIONS' && res.status === 204)) {
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(allow.sort());
    if (res.status === 405)
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    return;
  }
  const op = route!.methods[method.toLowerCase()] as Json | undefined;
  expect(op, `${method} ${route!.template} is not a documented operation`).toBeDefined();
  const text = await res.clone().text();
  const documented = op!.responses[String(res.status)] as Json | undefined;
  expect(
    documented,
    `${method} ${route!.template}: status ${res.status} is not documented: ${text}`,
  ).toBeDefined();
  if (!documented!.content) return;
  const [mediaType, media] = Object.entries(documented!.content as Json)[0]!;
  expect(res.headers.get('content-type')).toBe(mediaType);
  const validate = ajv.getSchema(`doc${(media as Json).schema.$ref as string}`)!;
  expect(
    validate(JSON.parse(text)),
    `${method} ${route!.template} ${res.status}: ${JSON.stringify(validate.errors)}`,
  ).toBe(true);
}

/**
 * The REST API as a test calls it: `call(method, path, body?, headers?)` with the deps and token
 * that `deps()` and `token()` give at the time of the call (a test sets them up in beforeAll),
 * every answer checked against the document (`expectDocumented`), so what only a test's state
 * reaches (a decided rule, a distributed run, a refused body) is held to the document as the
 * examples are.
 */
export function restCaller(deps: () => RestDeps, token: () => string) {
  return async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await handleRest(
      new Request(`http://pb.test/api/v1${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token()}`,
          'Content-Type': 'application/json',
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
      deps(),
    );
    await expectDocumented(method, path, res);
    return res;
  };
}
