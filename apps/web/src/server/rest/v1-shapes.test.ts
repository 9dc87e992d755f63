import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi';
import { v1Shapes } from './v1-shapes';

const PINNED = new URL('./v1-shapes.json', import.meta.url);

/**
 * Within /api/v1 fields are added, never removed, renamed or retyped: every field of the pinned
 * shapes (v1-shapes.json, the contract as released) must still be in the document with the same
 * types. New fields are fine; `UPDATE_V1_SHAPES=1` records them once they are released. (A field
 * whose meaning changed under the same name and type is a review matter: see docs/ci.md "API
 * changes".)
 */
describe('/api/v1 keeps its released shapes', () => {
  const now = v1Shapes(buildOpenApi('http://pb.test'));
  it('every pinned field is still there with the same types', () => {
    if (process.env.UPDATE_V1_SHAPES === '1')
      writeFileSync(PINNED, `${JSON.stringify(now, Object.keys(now).sort(), 2)}\n`);
    const pinned = JSON.parse(readFileSync(PINNED, 'utf8')) as Record<string, string>;
    const broken = Object.entries(pinned)
      .filter(([k, t]) => now[k] !== t)
      .map(([k, t]) => `${k}: was ${t}, now ${now[k] ?? 'gone'}`);
    expect(broken).toEqual([]);
    expect(Object.keys(pinned).length).toBeGreaterThan(100);
  });
  it('the check sees a removed and a retyped field', () => {
    const doc = buildOpenApi('http://pb.test') as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const run = doc.components.schemas.Run!;
    delete run.properties.loadGenerators;
    run.properties.status = { type: 'integer' };
    const shapes = v1Shapes(doc);
    expect(shapes['getRun response loadGenerators']).toBeUndefined();
    expect(shapes['getRun response status']).toBe('integer');
    expect(now['getRun response loadGenerators']).toBe('integer');
  });
});
